"""Graded answers to six interview questions, English and Chinese, written for measuring the scorer.

Each entry is ``(question id, language, grade, answer)``; grades, best first: ``good`` (every framework point
explained in the candidate's own words, Chinese ones with synonyms of the bank's wording), ``partial`` (two or
three points explained), ``list`` (the key terms only, no sentence saying anything about them: commas, 、,
bullets, a lead-in verb) and ``off`` (another subject). A real interviewer orders them so; the scorer should too
(``tests/test_interview_graded.py``). Written for the test, not taken from the bank's model answers.
"""
from __future__ import annotations

GRADES = ("good", "partial", "list", "off")

GRADED: list[tuple[str, str, str, str]] = [
    # ------------------------------------------------------------------ q3-fault-tolerance
    ("q3-fault-tolerance", "en", "good",
     "First I retry transient failures such as a 429 or a 503, waiting longer each time with exponential backoff "
     "and some jitter, and I respect Retry-After. If the primary tool keeps failing, I fall back to a backup tool "
     "that does the same job. When no tool works at all, the agent degrades gracefully: it tells the model the "
     "tool is unavailable so the model can explain or choose another way. Writes must be idempotent, so every "
     "order carries an idempotency key and a retried request is deduplicated. Every tool gets its own timeout, "
     "and after it expires the model decides whether to wait or give up."),
    ("q3-fault-tolerance", "en", "partial",
     "I would retry the call when the error is temporary, with exponential backoff so the server can recover. "
     "I also set a timeout on every tool so one slow call does not hang the whole agent."),
    ("q3-fault-tolerance", "en", "list",
     "Retry with backoff, fallback, graceful degradation, idempotency keys, timeouts, circuit breaker."),
    ("q3-fault-tolerance", "en", "list",
     "- retry\n- fallback\n- degradation\n- idempotency\n- timeout"),
    ("q3-fault-tolerance", "en", "off",
     "A B-tree index speeds up lookups in a database table, but every insert has to update the index too, so "
     "writes get slower."),
    ("q3-fault-tolerance", "zh", "good",
     "遇到 429、5xx 这类临时错误先重新尝试，每次等待时间按指数退避加随机抖动，并遵守 Retry-After。"
     "主工具一直失败就切到后备工具，比如把一个搜索接口换成另一个。"
     "所有工具都用不了的时候要优雅降级：告诉模型这个工具暂时不可用，让它换个办法或者向用户说明。"
     "写操作必须幂等，下单这种请求要带幂等键，重复的请求会被去重。"
     "每个工具单独设置超时，超时以后由模型决定继续等还是放弃。"),
    ("q3-fault-tolerance", "zh", "partial",
     "临时性的网络错误可以重新尝试，间隔按指数退避拉长。每个工具还要有自己的超时，超时后让模型决定是等还是放弃。"),
    ("q3-fault-tolerance", "zh", "list", "重试、备用、降级、幂等、超时、熔断"),
    ("q3-fault-tolerance", "zh", "list", "1. 退避重试\n2. 备用工具\n3. 优雅降级\n4. 幂等键\n5. 超时"),
    ("q3-fault-tolerance", "zh", "off",
     "数据库索引一般用 B+ 树实现，可以加快查询速度，但会降低写入性能。联合索引要注意最左前缀原则。"),
    # ------------------------------------------------------------------ fc-five-steps
    ("fc-five-steps", "en", "good",
     "The app sends the user's message together with the tool definitions: a name, a description and a JSON "
     "Schema for the parameters. The model does not answer in text; it returns tool_calls with an id, the "
     "function name and the arguments as a JSON string, and finish_reason is tool_calls. Our code, not the model, "
     "parses the arguments with json.loads and runs get_weather. We append the assistant message and then a "
     "tool message with the matching tool_call_id and the result. The model reads that result and writes the "
     "final answer, and the loop goes on until it replies in text."),
    ("fc-five-steps", "en", "partial",
     "The model returns tool_calls instead of text. Then the application parses the arguments and runs the "
     "function itself."),
    ("fc-five-steps", "en", "list", "definition, tool_calls, parse, tool_call_id, loop"),
    ("fc-five-steps", "en", "list",
     "I would mention tool definitions, tool_calls, parsing, the tool_call_id and the final answer."),
    ("fc-five-steps", "en", "off",
     "Kubernetes schedules pods onto nodes, and a deployment keeps the requested number of replicas running."),
    ("fc-five-steps", "zh", "good",
     "应用把用户消息和工具定义一起发给模型，每个定义有名字、描述和用 JSON Schema 写的参数。"
     "模型不直接回答文字，而是返回 tool_calls，里面有 id、函数名和字符串形式的 arguments，finish_reason 是 tool_calls。"
     "然后由我们的代码而不是模型去解析参数，执行真正的天气函数。"
     "接着先追加 assistant 消息，再追加一条 role 为 tool 的消息，带上对应的 tool_call_id。"
     "模型读到结果后给出最终回答；这个循环一直进行，直到模型用文字作答。"),
    ("fc-five-steps", "zh", "partial",
     "模型会返回 tool_calls 而不是文字。应用拿到以后自己解析 arguments，再执行真正的函数。"),
    ("fc-five-steps", "zh", "list", "工具定义，tool_calls，解析，tool_call_id，最终回答"),
    ("fc-five-steps", "zh", "list", "工具定义、结构化调用、解析执行、工具消息、最终回答"),
    ("fc-five-steps", "zh", "off",
     "Kubernetes 把 Pod 调度到节点上，Deployment 负责让副本数保持在期望的数量。"),
    # ------------------------------------------------------------------ schema-strict-limits
    ("schema-strict-limits", "en", "good",
     "Strict mode guarantees the format of the arguments, not their meaning: a well-formed city can still be the "
     "wrong city, so the code validates the values. It supports only a subset of JSON Schema; keywords like "
     "allOf or patternProperties are unsupported and the request fails with a 400. Schemas have size limits too, "
     "around 5000 properties and 10 levels of nesting. With parallel tool calls the arguments may not match, so "
     "strict tools need parallel_tool_calls set to false. And a strict response format can come back as a "
     "refusal, which the code has to handle."),
    ("schema-strict-limits", "en", "partial",
     "It only guarantees the shape, not the meaning, so you still validate the values in code. It also accepts "
     "only a subset of JSON Schema: unsupported keywords make the request fail."),
    ("schema-strict-limits", "en", "list", "shape vs meaning, subset, size limits, parallel calls, refusal"),
    ("schema-strict-limits", "en", "off",
     "React re-renders a component when its state or props change, and hooks keep state between renders."),
    ("schema-strict-limits", "zh", "good",
     "strict 只保证格式，不保证语义：城市名合法不代表城市是对的，取值还得在代码里校验。"
     "它只支持 JSON Schema 的一部分关键字，用了 allOf、patternProperties 这类不支持的关键字，请求会直接报 400。"
     "schema 本身也有大小上限，属性最多 5000 个，嵌套不能超过 10 层。"
     "并行调用时参数不一定符合 schema，所以用 strict 工具要把 parallel_tool_calls 设成 false。"
     "用 strict 响应格式时模型还可能拒绝回答，返回 refusal，代码要处理这种情况。"),
    ("schema-strict-limits", "zh", "partial",
     "只保证格式，不保证语义。而且只支持 JSON Schema 的一部分，用了不支持的关键字请求会失败。"),
    ("schema-strict-limits", "zh", "list", "形状、子集、大小、并行、拒答"),
    ("schema-strict-limits", "zh", "off",
     "React 组件在 state 或 props 变化时重新渲染，hooks 让状态在多次渲染之间保留下来。"),
    # ------------------------------------------------------------------ jsonrpc-basics
    ("jsonrpc-basics", "en", "good",
     "A request carries jsonrpc 2.0, a method name, optional params and an id. The server's response repeats "
     "that id and holds either a result or an error, never both. A notification is a request without an id, "
     "and the server must not answer it. An error object has a numeric code and a message, for example -32601 "
     "when the method does not exist. A batch sends an array of requests at once, and the reply contains the "
     "responses of the ones that had ids, some of which may be errors."),
    ("jsonrpc-basics", "en", "partial",
     "A request has a method, params and an id. A notification has no id, so the server never replies to it."),
    ("jsonrpc-basics", "en", "list", "request, response, notification, error code, batch"),
    ("jsonrpc-basics", "en", "off",
     "TCP opens a connection with a three-way handshake and retransmits lost segments."),
    ("jsonrpc-basics", "zh", "good",
     "请求里有 jsonrpc 2.0、method、可选的 params 和一个 id。"
     "响应带着同一个 id，里面要么是 result 要么是 error，两者只能有一个。"
     "通知就是没有 id 的请求，服务端不能回复它。"
     "错误对象包括 code 和 message，比如 -32601 表示方法不存在，-32602 表示参数无效。"
     "批处理是一次发一个请求数组，带 id 的请求都会有各自的响应，其中一部分可能失败。"),
    ("jsonrpc-basics", "zh", "partial",
     "请求包含 method、params 和 id。通知没有 id，服务端收到后不会回复。"),
    ("jsonrpc-basics", "zh", "list", "请求、响应、通知、错误码、批处理"),
    ("jsonrpc-basics", "zh", "off",
     "TCP 用三次握手建立连接，丢失的报文段会被重传。"),
    # ------------------------------------------------------------------ q2-fc-vs-mcp
    ("q2-fc-vs-mcp", "en", "good",
     "Function calling lives at the LLM API layer: it is how the model expresses that it wants a call, tools in "
     "and tool_calls out, and it needs no extra infrastructure. MCP is the tool layer: a client discovers tools "
     "with tools/list and invokes them with tools/call over JSON-RPC, which means running a server. They are "
     "complementary, because the host converts MCP tools into function definitions for the model. For a "
     "handful of internal tools in one app I would just use function calling; to share tools across frameworks "
     "or use third-party servers I would use MCP, and a large enterprise adds A2A on top."),
    ("q2-fc-vs-mcp", "en", "partial",
     "Function calling is the API layer where the model expresses a call. MCP is a protocol where tools are "
     "discovered with tools/list and called with tools/call."),
    ("q2-fc-vs-mcp", "en", "list", "function calling, mcp, complementary, internal, cross-framework"),
    ("q2-fc-vs-mcp", "en", "off",
     "Git stores snapshots of the tree, and a branch is just a movable pointer to a commit."),
    ("q2-fc-vs-mcp", "zh", "good",
     "Function calling 属于 LLM API 这一层，说的是模型怎么表达一次调用：请求里给 tools，回复里拿到 tool_calls，实现简单，不用额外的基础设施。"
     "MCP 属于工具层，规定工具怎样通过 JSON-RPC 被发现（tools/list）和被调用（tools/call），需要有服务器和客户端。"
     "两者并不冲突，而是相辅相成：host 会把 MCP 工具转成函数定义交给模型。"
     "如果只是一个应用里十来个内部工具，直接用 function calling；要跨框架共享工具或接入第三方工具就用 MCP，大型企业再加上 A2A。"),
    ("q2-fc-vs-mcp", "zh", "partial",
     "Function calling 是 LLM API 层的东西，描述模型怎么表达调用。MCP 是工具层的协议，工具通过 tools/list 被发现、通过 tools/call 被调用。"),
    ("q2-fc-vs-mcp", "zh", "list", "API 层、工具层、互补、内部、跨框架"),
    ("q2-fc-vs-mcp", "zh", "off",
     "Git 保存的是目录树的快照，分支只是一个指向提交的可移动指针。"),
    # ------------------------------------------------------------------ schema-structured-vs-tool
    ("schema-structured-vs-tool", "en", "good",
     "A response format with a strict json_schema constrains the final answer itself, and nothing gets executed. "
     "A tool is different: the model decides whether and when to call it, my code runs it and the result goes "
     "back to the model. json_object only promises valid JSON, not my schema, so I prefer json_schema with "
     "strict. The two combine well: tools during the loop, and a response format for the last answer."),
    ("schema-structured-vs-tool", "en", "partial",
     "json_object only promises valid JSON, not that it follows your schema. You can combine both: tools in the "
     "loop and a response format for the last answer."),
    ("schema-structured-vs-tool", "en", "list", "response_format, tool, json_object, combine"),
    ("schema-structured-vs-tool", "en", "off",
     "A CDN caches static files close to users, which cuts latency for images and scripts."),
    ("schema-structured-vs-tool", "zh", "good",
     "响应格式（strict 的 json_schema）约束的是最终回答本身，什么都不会被执行。"
     "工具则不同：由模型决定要不要调、什么时候调，我的代码去执行，结果再回到模型。"
     "json_object 只保证输出是合法的 JSON，不保证符合你的 schema，所以优先用带 strict 的 json_schema。"
     "两者可以一起用：循环过程中用工具，最后的回答用响应格式。"),
    ("schema-structured-vs-tool", "zh", "partial",
     "json_object 只保证是合法 JSON，不保证符合 schema。两者也可以结合：循环里用工具，最后的回答用响应格式。"),
    ("schema-structured-vs-tool", "zh", "list", "响应格式、工具、json_object、结合"),
    ("schema-structured-vs-tool", "zh", "off",
     "CDN 把静态文件缓存在离用户近的节点上，图片和脚本加载得更快。"),
]

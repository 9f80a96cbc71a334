// A peer implementation drives the course's A2A agent: the A2A JavaScript SDK's client
// (npm @a2a-js/sdk, A2A protocol 1.0) against the Python a2a-sdk agent of lesson 11.
//
// Usage: node a2a_js_client.mjs <agent base URL> [JSONRPC|HTTP+JSON]
// Prints one JSON object: what the JS client saw for card fetch, send, stream, get and cancel.
// tests/test_a2a_interop.py runs it and checks every field.
import { randomUUID } from "node:crypto";
import { ClientFactory, ClientFactoryOptions } from "@a2a-js/sdk/client";
import { Role, TaskState } from "@a2a-js/sdk";

const [baseUrl, binding = "JSONRPC"] = process.argv.slice(2);
if (!baseUrl) {
  console.error("usage: node a2a_js_client.mjs <agent base URL> [JSONRPC|HTTP+JSON]");
  process.exit(2);
}
const SLOW_SQL = "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c) SELECT count(*) FROM c";

const state = (s) => TaskState[s] ?? String(s);
const text = (message) => (message?.parts ?? []).filter((p) => p.content?.$case === "text").map((p) => p.content.value).join(" ");
const userMessage = (words, extra = {}) => ({
  messageId: randomUUID(), role: Role.ROLE_USER, parts: [{ content: { $case: "text", value: words } }], ...extra,
});
const errorOf = (e) => ({
  name: e?.constructor?.name, reason: e?.reason ?? null, message: String(e?.message ?? e),
  code: e?.envelopeCode ?? null, status: e?.statusCode ?? null, // JSON-RPC error code / REST HTTP status
});

const factory = new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
  preferredTransports: [binding],
}));
const client = await factory.createFromUrl(baseUrl);
const report = { binding, protocolVersion: client.protocolVersion, transport: client.transport.constructor.name };

// 1. Agent Card
const card = await client.getAgentCard();
report.card = {
  name: card.name, streaming: card.capabilities?.streaming ?? false,
  skills: card.skills.map((s) => ({ id: s.id, examples: s.examples })),
  interfaces: card.supportedInterfaces.map((i) => ({ binding: i.protocolBinding, version: i.protocolVersion })),
};

// 2. SendMessage (blocking): the seed's request
const sent = await client.sendMessage({ message: userMessage("Get the company's 2024 revenue") });
report.send = {
  kind: "status" in sent ? "task" : "message", state: state(sent.status?.state), id: sent.id,
  artifacts: (sent.artifacts ?? []).map((a) => ({
    name: a.name,
    text: a.parts.filter((p) => p.content?.$case === "text").map((p) => p.content.value).join(" "),
    data: a.parts.filter((p) => p.content?.$case === "data").map((p) => p.content.value),
  })),
};

// 3. SendStreamingMessage: events as they arrive, then the input-required turn resumed
const streamed = [];
let taskId, contextId;
for await (const event of client.sendMessageStream({ message: userMessage("How much revenue did we make?") })) {
  const c = event.payload?.$case;
  if (c === "task") { taskId = event.payload.value.id; contextId = event.payload.value.contextId; }
  const s = c === "task" ? event.payload.value.status : c === "statusUpdate" ? event.payload.value.status : undefined;
  streamed.push({ kind: c, state: s ? state(s.state) : null, text: s ? text(s.message) : null });
}
for await (const event of client.sendMessageStream({ message: userMessage("2023", { taskId, contextId }) })) {
  const c = event.payload?.$case;
  const s = c === "task" ? event.payload.value.status : c === "statusUpdate" ? event.payload.value.status : undefined;
  const art = c === "artifactUpdate" ? event.payload.value.artifact : undefined;
  streamed.push({ kind: c, state: s ? state(s.state) : null, text: s ? text(s.message) : art ? text(art) : null });
}
report.stream = { taskId, events: streamed };

// 4. GetTask: the streamed task's final snapshot, and an unknown id
const got = await client.getTask({ id: taskId });
report.get = { state: state(got.status.state), artifacts: got.artifacts.length, history: got.history.length };
try { await client.getTask({ id: "no-such-task" }); report.getUnknown = null; } catch (e) { report.getUnknown = errorOf(e); }

// 5. CancelTask: a running slow query, again (idempotent), a completed task, an unknown id
const slow = await client.sendMessage({ message: userMessage(SLOW_SQL), configuration: { returnImmediately: true } });
let running = slow;
for (let i = 0; i < 200 && state(running.status.state) !== "TASK_STATE_WORKING"; i++) {
  await new Promise((r) => setTimeout(r, 25));
  running = await client.getTask({ id: slow.id });
}
const canceled = await client.cancelTask({ id: slow.id });
const after = await client.getTask({ id: slow.id });
const again = await client.cancelTask({ id: slow.id });
report.cancel = {
  before: state(running.status.state), result: state(canceled.status.state), get: state(after.status.state),
  again: state(again.status.state), sameSnapshot: JSON.stringify(again.status) === JSON.stringify(canceled.status),
};
try { await client.cancelTask({ id: report.send.id }); report.cancelCompleted = null; } catch (e) { report.cancelCompleted = errorOf(e); }
try { await client.cancelTask({ id: "no-such-task" }); report.cancelUnknown = null; } catch (e) { report.cancelUnknown = errorOf(e); }

console.log(JSON.stringify(report, null, 1));

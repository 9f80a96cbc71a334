"""Small, fast text analysis for the mock LLM: words, stems, numbers, places, Chinese.

The mock has no model weights. It reads a request the way a careful person skims it:
content words (stemmed, stop words dropped), numbers (digits, English number words,
Chinese numerals), quoted strings, place names from a small gazetteer (English and
Chinese), and a bilingual lexicon that maps common Chinese words to the English concepts
tool descriptions use. Deliberate shortcut: the gazetteer and lexicon are small and
listed here in full, so a learner can read exactly what the mock knows.
"""
from __future__ import annotations

import re
from functools import lru_cache

from . import gazetteer as _gz

CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9']*|\d+(?:\.\d+)?")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")

STOPWORDS = frozenset(
    """a an the and or but if of to in on at by for with from into onto about as is are was were be been
    being am do does did doing have has had having i me my we our you your he she it its they them their
    this that these those there here what which who whom whose when where why how can could would should
    will shall may might must please tell give show let lets let's get got need want like just also some any
    all each every much many more most very so than then too up down out over again now today tonight
    currently current right me. hi hello hey thanks thank yes no not one""".split()
)

#: Verbs that appear in almost every tool description; they carry little signal.
WEAK = frozenset("get find fetch retriev return look use call run check provid inform data given specifi "
                 "agent assistant".split())  # "agent" alone is shared by every hand-off tool

#: Words of a tool that hands the user's request on to another agent ("Ask the Finance DB agent (an A2A agent) to
#: do this...", "delegate_to_researcher: hand the task over to the research assistant").
HANDS_OFF = re.compile(r"\b(?:ask|asks|delegat\w*|forward\w*|hand(?:s|ing)? (?:off|over)|handoff|send|sends|"
                       r"pass(?:es)?)\b[^.]{0,40}?\b(?:sub-?)?(?:agent|assistant)s?\b|\ba2a\b", re.I)
#: An argument described as going to another agent ("The task for the agent, in plain words", "What the
#: assistant should do"): the user's request, framing off, is its text.
FOR_AN_AGENT = re.compile(r"\b(?:for|to) the (?:sub-?)?(?:agent|assistant)\b|\bthe (?:sub-?)?(?:agent|assistant) "
                          r"(?:should|will|is to)\b", re.I)

#: Chinese word -> English concept(s) used by tool names and descriptions.
ZH_LEXICON: dict[str, str] = {
    "闹钟": "alarm", "天气": "weather", "气温": "temperature", "温度": "temperature", "湿度": "humidity", "下雨": "rain weather",
    "预报": "forecast", "搜索": "search", "查找": "search find", "检索": "search", "维基": "wiki", "百科": "wiki",
    "知识库": "wiki knowledge", "文档": "document doc", "任务": "task", "创建": "create", "新建": "create",
    "添加": "add create", "列出": "list", "所有": "all list", "更新": "update", "修改": "update", "状态": "status",
    "完成": "done complete", "城市": "city", "营收": "revenue", "收入": "revenue income", "财务": "finance",
    "文件": "file", "读取": "read", "打开": "read open", "写入": "write", "保存": "save write", "时间": "time",
    "几点": "time", "日期": "date", "汇率": "exchange rate currency", "兑换": "convert exchange", "换算": "convert", "换成": "convert", "转换": "convert", "转成": "convert",
    "货币": "currency", "股票": "stock", "股价": "stock price", "价格": "price", "发送": "send", "邮件": "email mail",
    "计算": "calculate", "翻译": "translate", "新闻": "news", "删除": "delete remove", "订单": "order",
    "下单": "order create", "数据库": "database", "查询": "query search", "用户": "user", "项目": "project",
    "优先级": "priority", "负责人": "assignee", "代码": "code", "审查": "review", "航班": "flight", "酒店": "hotel",
    "预订": "book reserve", "餐厅": "restaurant", "地图": "map", "距离": "distance", "路线": "route", "音乐": "music",
    "播放": "play", "提醒": "reminder remind", "日历": "calendar", "会议": "meeting", "网页": "web page",
    "网上": "web", "上网": "web", "互联网": "web internet",
    "机票": "flight ticket", "订": "book reserve", "飞往": "flight", "下雪": "snow weather", "晴天": "sunny weather",
    "带伞": "weather umbrella", "刮风": "wind weather", "冷吗": "weather temperature", "热吗": "weather temperature", "更热": "weather temperature",
    "更冷": "weather temperature", "更暖和": "weather temperature", "更凉快": "weather temperature",
    "冷不冷": "weather temperature", "热不热": "weather temperature", "多少度": "temperature weather",
    "风大": "wind weather", "标记": "update status", "标为": "update status", "改成": "update", "改为": "update",
    "设为": "update set", "搜": "search", "买": "buy purchase order", "购买": "buy purchase order", "活动": "activity activities things",
    "户外": "outdoor", "室内": "indoor", "好玩": "things activities", "流程": "process", "报销": "expense",
    "政策": "policy", "制度": "policy", "规定": "policy",
    "标题": "title", "名称": "name title", "内容": "content text", "收件人": "recipient", "主题": "subject topic",
    "正文": "body content text",
    # 查/找 alone ask for a search (查一下, 找一下); the longer words that hold them do not (see chinese_concepts)
    # everyday goods: an English enum of items read from a Chinese request (买个水壶 -> 'kettle')
    "水壶": "kettle", "烧水壶": "kettle", "杯子": "cup mug", "马克杯": "mug", "咖啡豆": "coffee beans",
    "咖啡": "coffee", "茶叶": "tea", "雨伞": "umbrella", "手机": "phone", "笔记本电脑": "laptop",
    "耳机": "headphones", "键盘": "keyboard", "鼠标": "mouse", "显示器": "monitor",
    "开会": "meeting meet", "开个会": "meeting meet", "周会": "meeting", "例会": "meeting", "邀请": "invite",
    "查": "search", "找": "search find", "检查": "check", "调查": "investigate", "查看": "view show",
    "小费": "tip gratuity", "账单": "bill", "服务费": "service charge fee", "百分比": "percentage percent",
    "计时器": "timer", "倒计时": "countdown timer",
    "寄": "ship send", "包裹": "parcel package", "快递": "parcel shipment ship", "重量": "weight",
    "跑步": "run running", "规划": "plan", "恒温器": "thermostat",
    # an air conditioner's or a heater's modes, as an enum names them in English (把空调调到制冷 -> mode 'cool')
    "空调": "ac air conditioner", "制冷": "cool cooling", "制热": "heat heating", "除湿": "dry dehumidify",
    "送风": "fan", "自动模式": "auto automatic",
    # exercise (跑 alone: 我今天跑了5公里; 跑车 is a car, not a run), smart-home and git words
    "跑": "run running", "跑车": "car", "散步": "walk walking", "骑车": "cycling ride bike", "骑行": "cycling ride",
    "游泳": "swim swimming", "锻炼": "exercise workout", "健身": "workout exercise", "运动": "exercise workout",
    "灯": "light lights lamp", "灯光": "light lights", "亮度": "brightness", "调暗": "dim", "调亮": "brighten",
    "厨房": "kitchen", "卧室": "bedroom", "客厅": "living room", "浴室": "bathroom", "卫生间": "bathroom",
    "书房": "study", "车库": "garage", "风扇": "fan", "关掉": "off", "关闭": "off close", "开灯": "light on", "关灯": "light off",
    "切换": "switch", "分支": "branch", "显示": "show",
}

def _work_words() -> dict[str, str]:
    """Chinese words of everyday work records, their verbs and the teams that keep them (工单 ticket, 告警 alert,
    归档 archive, 运维 devops...) -> English concept words, from ``course_lib/data/zh_work_words.json``."""
    from ..package_data import load_json

    data = load_json("zh_work_words.json")
    return {word: en for group in ("records", "verbs", "teams") for word, en in data[group].items()}


# the lexicon above wins where both name a word
ZH_LEXICON.update({word: en for word, en in _work_words().items() if word not in ZH_LEXICON})

#: Everyday words that name a tool's subject without its word ("will it rain?" asks for the weather,
#: "fly me to Rome" for a flight): request stem -> the concept stems it implies. One step, no chains.
IMPLIED: dict[str, tuple[str, ...]] = {
    **{w: ("weather",) for w in ("rain", "rainy", "snow", "snowy", "sunny", "umbrella", "forecast", "storm",
                                 "stormy", "windy", "cloudy", "foggy", "drizzl", "thunderstorm", "hail")},
    **{w: ("weather", "temperatur") for w in ("hot", "cold", "warm", "chilly", "colder", "warmer", "hotter",
                                              "cooler", "chillier")},
    # a meeting or an appointment is an event; putting one on a calendar is scheduling it
    "appointment": ("event",), "meet": ("event",), "schedul": ("event",), "calendar": ("event",),
    "remind": ("todo", "task"),
    **{w: ("weather",) for w in ("sunglass", "sunscreen", "raincoat")},  # "remind me to buy milk", 提醒我: a to-do to keep
    "mark": ("updat", "status"), "fly": ("flight",), "flie": ("flight",), "airlin": ("flight",), "airfar": ("flight",), "seat": ("book",),
}

#: English city name -> Chinese name. Used both ways (the table lives in :mod:`.gazetteer`).
CITIES: dict[str, str] = _gz.CITIES
_ZH_CITIES = {zh: en for en, zh in CITIES.items()}
_CITY_EN = re.compile(r"\b" + _gz.starts_with_one_of(CITIES) + "(" + "|".join(sorted(map(re.escape, CITIES), key=len, reverse=True))
                      + r")\b", re.I)
_CITY_ZH = re.compile("|".join(sorted(map(re.escape, _ZH_CITIES), key=len, reverse=True)))

NUMBER_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30,
    "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100,
    "a dozen": 12, "dozen": 12, "a couple of": 2, "a pair of": 2, "single": 1, "once": 1, "twice": 2,
}
_ZH_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_ZH_UNITS = {"十": 10, "百": 100, "千": 1000, "万": 10000}
_ZH_NUM = re.compile(r"[零〇一二两三四五六七八九十百千万]+")
#: Characters that make a lone 一 part of a word rather than a number (一下, 一些, 一起, 一直...).
_ZH_YI_WORDS = frozenset("下些起直般样定切旦边致同")
_NUM = re.compile(r"(?<![\w.])-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?<![\w.])-?\d+(?:\.\d+)?")
_NUM_WORD = re.compile(r"\b(" + "|".join(sorted(map(re.escape, NUMBER_WORDS), key=len, reverse=True)) + r")\b", re.I)
QUOTED = re.compile(r"\"([^\"]+)\"|“([^”]+)”|「([^」]+)」|‘([^’]+)’|'([^']{2,})'(?!\w)|《([^》]+)》")


def is_chinese(text: str) -> bool:
    """True when ``text`` contains CJK ideographs (the mock then answers in Chinese)."""
    return bool(CJK.search(text))


@lru_cache(maxsize=8192)
def stem(word: str) -> str:
    """A light English stemmer: ``"searches" -> "search"``, ``"cities" -> "city"``; a singular and its plural
    share one stem (``"movie"`` and ``"movies"`` -> ``"movy"``)."""
    w = word.lower()
    if len(w) <= 3:
        return w
    for suffix, repl in (("ies", "y"), ("sses", "ss"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3 and re.search(r"[aeiouy]", w[: len(w) - len(suffix)]):
            if suffix == "ed" and w.endswith("eed"):
                continue  # "speed", "need": not a past tense
            if suffix == "es" and not w.endswith(("ches", "shes", "xes", "sses", "zes")):
                continue
            if suffix == "s" and w.endswith(("ss", "us", "is")):
                continue
            w = w[: len(w) - len(suffix)] + repl
            break
    if w.endswith("ie") and len(w) > 4:
        return w[:-2] + "y"  # "movie" as "movies" ("movy"), "cookie" as "cookies"
    if w.endswith("e") and len(w) > 4:
        w = w[:-1]
    return w


def split_identifier(name: str) -> list[str]:
    """``"getWeather_now"`` -> ``["get", "weather", "now"]`` (a new list each call; split once per name)."""
    return list(_split_identifier(name))


_IDENTIFIER_SEPARATORS = re.compile(r"[_\-.\s]+")


@lru_cache(maxsize=8192)
def _split_identifier(name: str) -> tuple[str, ...]:
    """The words of an identifier, cached: tools' and parameters' names come back with every request."""
    return tuple(p.lower() for p in _IDENTIFIER_SEPARATORS.split(_CAMEL.sub(" ", name)) if p)


@lru_cache(maxsize=4096)
def content_stems(text: str) -> tuple[str, ...]:
    """Stemmed content words of ``text`` (English), stop words removed, in order."""
    out = []
    for raw in _WORD.findall(_CAMEL.sub(" ", text.replace("_", " "))):
        w = raw.lower()
        if w in STOPWORDS or w.isdigit():
            continue
        out.append(stem(w))
    return tuple(out)


@lru_cache(maxsize=4096)
def chinese_concepts(text: str) -> tuple[str, ...]:
    """English concept stems for the Chinese words of ``text`` found in :data:`ZH_LEXICON`.

    A word counts only where no longer lexicon word holds it: ``"查一下退款政策"`` -> ``("search",)``, but
    ``"检查订单"`` -> ``("check", "order")``, with no search in 检查 (nor a booking in 订单's 订).
    """
    if text.isascii():  # every word of the lexicon is Chinese: none can be in it (most requests: no scan)
        return ()
    found = [(zh, en, m.start()) for zh, en in ZH_LEXICON.items() for m in re.finditer(re.escape(zh), text)]
    spans = [(start, start + len(zh)) for zh, _, start in found]
    out: list[str] = []
    for zh, en in ZH_LEXICON.items():  # the lexicon's order, as before (scores read the first concepts first)
        if any(w == zh and not _held_by_longer(start, start + len(zh), spans) for w, _, start in found):
            out.extend(stem(w) for w in en.split())
    return tuple(out)


def _held_by_longer(start: int, end: int, spans: list[tuple[int, int]]) -> bool:
    return any(a <= start and end <= b and b - a > end - start for a, b in spans)


def cjk_bigrams(text: str) -> set[str]:
    """Overlapping two-character windows of each CJK run (a tokenizer-free match unit)."""
    grams: set[str] = set()
    if text.isascii():  # no CJK character can be in it (a fast path: this runs for every clause scored)
        return grams
    for run in re.findall(r"[\u3400-\u9fff]+", text):
        grams.update(run[i : i + 2] for i in range(len(run) - 1))
    return grams


def find_cities(text: str) -> list[tuple[str, int]]:
    """Known cities in ``text`` as ``(name as written, position)``, in order of appearance.

    English names come back in their canonical spelling (``"shanghai"`` -> ``"Shanghai"``);
    Chinese names stay Chinese (``"上海"``), as a real model keeps the user's language.
    """
    return list(_find_cities(text))


@lru_cache(maxsize=1024)
def _find_cities(text: str) -> tuple[tuple[str, int], ...]:
    found = [(_canonical_city(m.group(1)), m.start()) for m in _CITY_EN.finditer(text)]
    found += [(m.group(0), m.start()) for m in _CITY_ZH.finditer(text) if zh_word_at(text, m.start(), m.end())]
    found.sort(key=lambda x: x[1])
    seen: set[str] = set()
    out = []
    for name, pos in found:
        if name not in seen:
            seen.add(name)
            out.append((name, pos))
    return tuple(out)


#: Everyday Chinese words that share a character with a place name ("晚上" ends with 上 of 上海, "海底"
#: starts with its 海): with the places, the lexicon words and the day words they segment a request, so
#: that 晚上海底捞 (evening, Haidilao) reads as 晚上|海底|捞 and holds no 上海.
ZH_COMMON_WORDS = frozenset("""
    晚上 早上 马上 路上 网上 身上 天上 地上 桌上 楼上 线上 北上 以上 之上 加上 关上 爱上 跟上 赶上 遇上 上午 上面
    海底 海边 海鲜 海外 海关 海报 海洋 海水 海淘 海量 海滩 海军 海浪 海岸 海景
    东北 西北 败北 北边 北方 北部 京剧 东南 西南 指南 南方 南边 南部 东西 西方 西边 西部 西瓜 西餐
    安排 安全 安装 安静 平安 安心 完成 变成 换成 组成 成功 成本 成绩 成为 成员
    都是 都有 都市 都会 都要 都在 都不 都能 全都 今天 明天 每天 天天 聊天 昨天 后天 春天 夏天 秋天 冬天 白天
    当天 那天 天空 津贴 州长 推广 广告 广场 广播 重要 重新 严重 重量 庆祝 国庆 香味 香水 港口
    门口 出门 开门 关门 部门 门票 东方 股东 房东 道德 这里 那里 哪里 里面 公里 英里 心里 家里 美食 美元 完美
    美丽 国家 国际 国内 国外 全国 其中 中心 中午 中间 中文 今日 明日 日期 生日 节日 日元 本来 本地 本周 本月
    方法 办法 法律 算法 语法 下巴 嘴巴 尾巴 非常 打印 印象 温度 湿度 角度 速度 度假 沙发 沙滩 中华 华人 新闻
    最新 预约 约会 大约 今晚 明晚 下午 今年 明年 去年 首先 首页 大阪 马路 罗马 米饭 大米 河边
""".split())


@lru_cache(maxsize=1)
def _zh_lexicon() -> tuple[frozenset[str], int]:
    words = set(ZH_COMMON_WORDS) | set(ZH_LEXICON) | set(_gz.CITIES.values()) | set(_gz.COUNTRIES.values())
    return frozenset(words), max(map(len, words))


@lru_cache(maxsize=2048)
def _zh_spans(run: str) -> frozenset[tuple[int, int]]:
    """The words of a run of Chinese characters by forward and by backward longest matching, as spans."""
    words, longest = _zh_lexicon()
    spans: set[tuple[int, int]] = set()
    i = 0
    while i < len(run):  # forward: the longest word that starts here
        n = next((k for k in range(min(longest, len(run) - i), 1, -1) if run[i:i + k] in words), 1)
        spans.add((i, i + n))
        i += n
    j = len(run)
    while j > 0:  # backward: the longest word that ends here
        n = next((k for k in range(min(longest, j), 1, -1) if run[j - k:j] in words), 1)
        spans.add((j - n, j))
        j -= n
    return frozenset(spans)


def zh_word_at(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` (a Chinese place name found in ``text``) is a word there, not the middle of others.

    "上海天气", "去上海", "上海和北京": yes. "晚上海底捞": no, the characters around it make 晚上 and 海底.
    The request is segmented by longest matching over a small lexicon (places, :data:`ZH_LEXICON`,
    :data:`ZH_COMMON_WORDS`), forwards and backwards; the name counts when either reading keeps it whole.
    """
    a = start
    while a > 0 and CJK.match(text[a - 1]):
        a -= 1
    b = end
    while b < len(text) and CJK.match(text[b]):
        b += 1
    return (start - a, end - a) in _zh_spans(text[a:b])


def _canonical_city(name: str) -> str:
    for c in CITIES:
        if c.lower() == name.lower():
            return c
    return name


def chinese_number(s: str) -> int | None:
    """Parse a Chinese numeral: ``"三" -> 3``, ``"十五" -> 15``, ``"两千零二十四" -> 2024``."""
    if not s or any(ch not in _ZH_DIGITS and ch not in _ZH_UNITS for ch in s):
        return None
    total, section, digit = 0, 0, None
    for ch in s:
        if ch in _ZH_DIGITS:
            digit = _ZH_DIGITS[ch]
        else:
            unit = _ZH_UNITS[ch]
            if unit == 10000:
                section = (section + (digit or 0)) * unit
                total += section
                section = 0
            else:
                section += (1 if digit is None else digit) * unit
            digit = None
    if digit is not None:
        # "三千五" style shorthand is rare in requests; read a trailing digit literally.
        section += digit
    return total + section


def find_numbers(text: str) -> list[tuple[float, int, int]]:
    """Numbers in ``text`` as ``(value, start, end)``: digits, English words, Chinese numerals.

    ``"1,200.5"`` -> 1200.5; ``"-3"`` -> -3; ``"five"`` -> 5; ``"十五"`` -> 15. Values that
    are whole come back as ``int``.
    """
    spans: list[tuple[float, int, int]] = []
    for m in _NUM.finditer(text):
        v = float(m.group(0).replace(",", ""))
        spans.append((int(v) if v.is_integer() and "." not in m.group(0) else v, m.start(), m.end()))
    taken = [(s, e) for _, s, e in spans]
    for m in _NUM_WORD.finditer(text):
        if not any(s <= m.start() < e for s, e in taken):
            spans.append((NUMBER_WORDS[m.group(1).lower()], m.start(), m.end()))
    for m in _ZH_NUM.finditer(text):
        if m.group(0) == "一" and text[m.end() : m.end() + 1] in _ZH_YI_WORDS:
            continue  # 一下, 一些, 一起...: "a bit", "some", "together", not the number one
        v = chinese_number(m.group(0))
        if v is not None and not any(s <= m.start() < e for s, e in taken):
            spans.append((v, m.start(), m.end()))
    spans.sort(key=lambda x: x[1])
    return spans


def quoted_strings(text: str) -> list[tuple[str, int, int]]:
    """Text inside quotes (straight, curly, 「」, 《》) as ``(inner, start, end)``."""
    out = []
    for m in QUOTED.finditer(text):
        inner = next(g for g in m.groups() if g is not None)
        out.append((inner.strip(), m.start(), m.end()))
    return out


#: Groups of words that mean the same to a tool description (compared as stems).
SYNONYM_GROUPS: tuple[tuple[str, ...], ...] = (
    ("speed", "velocity"), ("car", "vehicle", "automobile", "auto"), ("film", "movie", "cinema"),
    ("picture", "image", "photo"), ("song", "music", "track", "tune"), ("buy", "purchase"),
    ("price", "cost"), ("begin", "start", "initial", "origin", "departure", "source"),
    ("end", "final", "destination", "arrival"), ("town", "city"), ("nation", "country"),
    ("doctor", "physician"), ("lawyer", "attorney"), ("lawsuit", "litigation"), ("weight", "mass"),
    ("quantity", "amount", "count"), ("temperature", "temp"), ("employee", "staff", "worker"),
    ("company", "firm", "corporation", "business", "enterprise"), ("hotel", "accommodation", "lodging"),
    ("book", "reserve", "booking", "reservation"), ("distance", "length"), ("author", "writer"),
    ("document", "doc", "file"), ("delete", "remove", "erase"), ("create", "add", "make", "new"),
    ("search", "find", "look", "lookup", "query"), ("fetch", "retrieve", "obtain"),
    ("calculate", "compute", "calc", "determine", "estimate"), ("show", "display"), ("email", "mail", "e-mail"),
    ("convert", "conversion", "exchange"), ("revenue", "sales", "turnover"), ("profit", "earnings", "gain"),
    ("average", "mean", "avg"), ("probability", "odds", "chance", "likelihood"), ("sum", "total"),
    ("number", "num"), ("information", "info", "details", "detail"), ("statistics", "stats", "stat"),
    ("maximum", "max", "highest", "largest", "biggest"), ("minimum", "min", "lowest", "smallest"),
    ("database", "db"), ("identifier", "id"), ("description", "desc"), ("photo", "photograph"),
    ("location", "place", "where"), ("kid", "child", "children"), ("adult", "grown-up"),
    ("rating", "score", "review"), ("capacity", "volume"), ("population", "inhabitants", "people"),
    ("recipe", "dish", "cook", "cooking"), ("restaurant", "eatery", "diner"), ("nutrition", "nutritional", "nutrient"),
    ("medicine", "drug", "medication"), ("illness", "disease", "sickness"), ("shop", "store"),
    ("route", "directions", "direction", "way"), ("hypotenuse", "hypot"), ("factorial", "fact"),
    ("timezone", "zone"), ("wage", "salary", "pay"), ("tax", "taxes"), ("loan", "mortgage", "credit"),
    ("translate", "translation"), ("schedule", "timetable", "calendar"), ("player", "athlete"),
    ("game", "match"), ("team", "club", "squad"), ("concert", "gig", "show"), ("ticket", "tickets"),
    ("artwork", "painting", "art"), ("sculpture", "statue"), ("language", "lang"), ("duration", "length", "period"),
    ("year", "annual", "yearly", "annually"), ("month", "monthly"), ("week", "weekly"), ("day", "daily"),
    ("growth", "grow", "increase"), ("decline", "decrease", "drop"), ("size", "dimension"),
    ("gcd", "greatest common divisor"), ("hcf", "highest common factor"), ("lcm", "least common multiple"),
    ("bmi", "body mass index"), ("roi", "return on investment"), ("npv", "net present value"),
    ("yoy", "year over year"), ("eps", "earnings per share"), ("gdp", "gross domestic product"),
    ("dna", "deoxyribonucleic"), ("stock", "share", "equity", "ticker"), ("genre", "category", "kind", "type"),
    ("ingredient", "ingredients"), ("vegan", "plant-based"), ("hour", "hours", "hrs"), ("limit", "top"),
    ("task", "todo", "to-do", "reminder", "remind", "chore"), ("passenger", "seat", "traveler", "traveller"),
)


def _synonym_index() -> dict[str, frozenset[str]]:
    index: dict[str, set[str]] = {}
    for group in SYNONYM_GROUPS:
        stems = {stem(w) if " " not in w else w for w in group}
        for s_ in stems:
            index.setdefault(s_, set()).update(stems - {s_})
    return {k: frozenset(v) for k, v in index.items()}


_SYNONYMS = _synonym_index()


def synonyms(word_stem: str) -> frozenset[str]:
    """Stems that mean the same as ``word_stem`` (``"velocity"`` -> ``{"speed"}``)."""
    return _SYNONYMS.get(word_stem, frozenset())


@lru_cache(maxsize=65536)
def word_matches(a: str, b: str) -> bool:
    """Whether two stems name the same thing: equal, a synonym, or one abbreviating the other.

    ``"hypot"`` ~ ``"hypotenus"`` and ``"calc"`` ~ ``"calcul"`` (a prefix of 4+ letters).
    """
    if a == b:
        return True
    if len(a) >= 4 and len(b) >= 4 and (a.startswith(b) or b.startswith(a)):
        short, long_ = (a, b) if len(a) <= len(b) else (b, a)
        if len(short) >= 5 or len(long_) - len(short) <= 6:
            return True  # a prefix too short for its word may still be a listed synonym ("info")
    return b in _SYNONYMS.get(a, ())


def matches_any(word_stem: str, keys: frozenset[str] | set[str]) -> bool:
    """Whether ``word_stem`` names one of ``keys`` (see :func:`word_matches`)."""
    if word_stem in keys:
        return True
    return any(word_matches(word_stem, k) for k in keys)

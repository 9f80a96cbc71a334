"""What the mock knows about the world, listed in full: places, currencies, units, companies.

A real model knows that "NY" is New York, that "$" means US dollars, that "5 seconds" is a
duration and that Apple trades as AAPL. The mock has no weights, so its world knowledge is
these small tables, kept short and readable on purpose: a learner can see exactly what it
knows (and therefore what it cannot know). Nothing here names a benchmark item; every
entry is general knowledge.
"""
from __future__ import annotations

import functools
import re

from ..package_data import load_json

#: English city name -> Chinese name (used both ways).
CITIES: dict[str, str] = {
    "Shanghai": "上海", "Beijing": "北京", "Shenzhen": "深圳", "Guangzhou": "广州", "Hangzhou": "杭州",
    "Chengdu": "成都", "Wuhan": "武汉", "Nanjing": "南京", "Xi'an": "西安", "Chongqing": "重庆",
    "Tianjin": "天津", "Suzhou": "苏州", "Hong Kong": "香港", "Taipei": "台北", "Macau": "澳门",
    "Tokyo": "东京", "Osaka": "大阪", "Kyoto": "京都", "Seoul": "首尔", "Singapore": "新加坡",
    "Bangkok": "曼谷", "Mumbai": "孟买", "Delhi": "德里", "New Delhi": "新德里", "Dubai": "迪拜",
    "Paris": "巴黎", "London": "伦敦", "Berlin": "柏林", "Madrid": "马德里", "Rome": "罗马",
    "Amsterdam": "阿姆斯特丹", "Vienna": "维也纳", "Zurich": "苏黎世", "Moscow": "莫斯科",
    "Istanbul": "伊斯坦布尔", "Cairo": "开罗", "Nairobi": "内罗毕", "Lagos": "拉各斯",
    "New York": "纽约", "Los Angeles": "洛杉矶", "San Francisco": "旧金山", "Chicago": "芝加哥",
    "Seattle": "西雅图", "Boston": "波士顿", "Toronto": "多伦多", "Vancouver": "温哥华",
    "Mexico City": "墨西哥城", "Sao Paulo": "圣保罗", "Buenos Aires": "布宜诺斯艾利斯",
    "Sydney": "悉尼", "Melbourne": "墨尔本", "Auckland": "奥克兰", "Lisbon": "里斯本",
    "Oslo": "奥斯陆", "Stockholm": "斯德哥尔摩", "Helsinki": "赫尔辛基", "Copenhagen": "哥本哈根",
    "Dublin": "都柏林", "Barcelona": "巴塞罗那", "Milan": "米兰", "Munich": "慕尼黑", "Prague": "布拉格",
    "Warsaw": "华沙", "Athens": "雅典", "Edinburgh": "爱丁堡", "Manchester": "曼彻斯特", "Venice": "威尼斯",
    "Florence": "佛罗伦萨", "Jakarta": "雅加达", "Manila": "马尼拉", "Hanoi": "河内", "Kuala Lumpur": "吉隆坡",
    "Harbin": "哈尔滨", "Qingdao": "青岛", "Xiamen": "厦门", "Dalian": "大连", "Kunming": "昆明", "Changsha": "长沙",
    "Zhengzhou": "郑州", "Shenyang": "沈阳", "Jinan": "济南", "Hefei": "合肥", "Lhasa": "拉萨", "Sanya": "三亚",
    "Guilin": "桂林", "Lyon": "里昂", "Marseille": "马赛", "Frankfurt": "法兰克福", "Geneva": "日内瓦",
    "Brussels": "布鲁塞尔",
}

#: US cities a request often names without their state, -> state code.
US_CITIES: dict[str, str] = {
    "New York": "NY", "New York City": "NY", "Los Angeles": "CA", "San Francisco": "CA", "San Diego": "CA",
    "San Jose": "CA", "Sacramento": "CA", "Oakland": "CA", "Berkeley": "CA", "Palo Alto": "CA",
    "Chicago": "IL", "Houston": "TX", "Dallas": "TX", "Austin": "TX", "San Antonio": "TX", "Phoenix": "AZ",
    "Philadelphia": "PA", "Pittsburgh": "PA", "Seattle": "WA", "Boston": "MA", "Miami": "FL", "Orlando": "FL",
    "Tampa": "FL", "Atlanta": "GA", "Denver": "CO", "Las Vegas": "NV", "Portland": "OR", "Detroit": "MI",
    "Minneapolis": "MN", "Nashville": "TN", "Memphis": "TN", "New Orleans": "LA", "Baltimore": "MD",
    "Cleveland": "OH", "Columbus": "OH", "Cincinnati": "OH", "Indianapolis": "IN", "Kansas City": "MO",
    "St. Louis": "MO", "Salt Lake City": "UT", "Honolulu": "HI", "Anchorage": "AK", "Charlotte": "NC",
    "Raleigh": "NC", "Milwaukee": "WI", "Albuquerque": "NM", "Omaha": "NE", "Brooklyn": "NY",
    "Manhattan": "NY", "Washington D.C.": "DC", "Washington, D.C.": "DC", "Washington DC": "DC",
}

#: What people call a city for short -> its name ("LA" -> "Los Angeles"): everyday knowledge a model has.
CITY_ALIASES: dict[str, str] = {
    "LA": "Los Angeles", "L.A.": "Los Angeles", "NYC": "New York", "N.Y.C.": "New York", "SF": "San Francisco",
    "San Fran": "San Francisco", "Philly": "Philadelphia", "Chi-town": "Chicago", "Chitown": "Chicago",
    "Vegas": "Las Vegas", "NOLA": "New Orleans", "the Big Apple": "New York", "Big Apple": "New York",
    "KL": "Kuala Lumpur", "HK": "Hong Kong", "DC": "Washington, D.C.", "D.C.": "Washington, D.C.",
}

US_STATES: dict[str, str] = {
    "AL": "Alabama", "AK": "Alaska", "AZ": "Arizona", "AR": "Arkansas", "CA": "California", "CO": "Colorado",
    "CT": "Connecticut", "DE": "Delaware", "FL": "Florida", "GA": "Georgia", "HI": "Hawaii", "ID": "Idaho",
    "IL": "Illinois", "IN": "Indiana", "IA": "Iowa", "KS": "Kansas", "KY": "Kentucky", "LA": "Louisiana",
    "ME": "Maine", "MD": "Maryland", "MA": "Massachusetts", "MI": "Michigan", "MN": "Minnesota",
    "MS": "Mississippi", "MO": "Missouri", "MT": "Montana", "NE": "Nebraska", "NV": "Nevada",
    "NH": "New Hampshire", "NJ": "New Jersey", "NM": "New Mexico", "NY": "New York", "NC": "North Carolina",
    "ND": "North Dakota", "OH": "Ohio", "OK": "Oklahoma", "OR": "Oregon", "PA": "Pennsylvania",
    "RI": "Rhode Island", "SC": "South Carolina", "SD": "South Dakota", "TN": "Tennessee", "TX": "Texas",
    "UT": "Utah", "VT": "Vermont", "VA": "Virginia", "WA": "Washington", "WV": "West Virginia",
    "WI": "Wisconsin", "WY": "Wyoming", "DC": "District of Columbia",
}
STATE_CODES = {name.lower(): code for code, name in US_STATES.items()}

COUNTRIES: dict[str, str] = {  # English name -> Chinese name
    "United States": "美国", "USA": "美国", "China": "中国", "Japan": "日本", "Korea": "韩国", "South Korea": "韩国",
    "India": "印度", "Germany": "德国", "France": "法国", "United Kingdom": "英国", "UK": "英国", "Italy": "意大利",
    "Spain": "西班牙", "Canada": "加拿大", "Mexico": "墨西哥", "Brazil": "巴西", "Argentina": "阿根廷",
    "Australia": "澳大利亚", "Russia": "俄罗斯", "Egypt": "埃及", "Nigeria": "尼日利亚", "Kenya": "肯尼亚",
    "South Africa": "南非", "Turkey": "土耳其", "Netherlands": "荷兰", "Sweden": "瑞典", "Norway": "挪威",
    "Switzerland": "瑞士", "Singapore": "新加坡", "Thailand": "泰国", "Vietnam": "越南", "Indonesia": "印度尼西亚",
    "Greece": "希腊", "Portugal": "葡萄牙", "Ireland": "爱尔兰", "Poland": "波兰", "New Zealand": "新西兰",
    "Saudi Arabia": "沙特阿拉伯", "Israel": "以色列", "Iran": "伊朗", "Pakistan": "巴基斯坦", "Peru": "秘鲁",
    "Chile": "智利", "Colombia": "哥伦比亚", "Ukraine": "乌克兰", "Finland": "芬兰", "Denmark": "丹麦",
    "Belgium": "比利时", "Austria": "奥地利", "Philippines": "菲律宾", "Malaysia": "马来西亚",
}

#: What a people is called -> its country: "German history" is the history of Germany.
DEMONYMS: dict[str, str] = {
    "american": "United States", "british": "United Kingdom", "english": "England", "chinese": "China",
    "japanese": "Japan", "korean": "South Korea", "indian": "India", "german": "Germany", "french": "France",
    "italian": "Italy", "spanish": "Spain", "canadian": "Canada", "mexican": "Mexico", "brazilian": "Brazil",
    "argentinian": "Argentina", "australian": "Australia", "russian": "Russia", "egyptian": "Egypt",
    "nigerian": "Nigeria", "kenyan": "Kenya", "turkish": "Turkey", "dutch": "Netherlands", "swedish": "Sweden",
    "norwegian": "Norway", "swiss": "Switzerland", "greek": "Greece", "portuguese": "Portugal", "irish": "Ireland",
    "polish": "Poland", "ukrainian": "Ukraine", "finnish": "Finland", "danish": "Denmark", "belgian": "Belgium",
    "austrian": "Austria", "vietnamese": "Vietnam", "thai": "Thailand", "israeli": "Israel", "iranian": "Iran",
    "pakistani": "Pakistan", "peruvian": "Peru", "chilean": "Chile", "colombian": "Colombia",
}

#: Currency names and symbols -> ISO 4217 code.
CURRENCIES: dict[str, str] = {
    "us dollar": "USD", "us dollars": "USD", "dollar": "USD", "dollars": "USD", "usd": "USD", "$": "USD",
    "euro": "EUR", "euros": "EUR", "eur": "EUR", "€": "EUR", "pound": "GBP", "pounds": "GBP",
    "british pound": "GBP", "british pounds": "GBP", "pound sterling": "GBP", "gbp": "GBP", "£": "GBP",
    "yen": "JPY", "japanese yen": "JPY", "jpy": "JPY", "yuan": "CNY", "renminbi": "CNY", "rmb": "CNY",
    "cny": "CNY", "chinese yuan": "CNY", "¥": "CNY", "元": "CNY", "人民币": "CNY", "美元": "USD", "欧元": "EUR",
    "英镑": "GBP", "日元": "JPY", "canadian dollar": "CAD", "canadian dollars": "CAD", "cad": "CAD",
    "australian dollar": "AUD", "australian dollars": "AUD", "aud": "AUD", "swiss franc": "CHF",
    "swiss francs": "CHF", "chf": "CHF", "indian rupee": "INR", "indian rupees": "INR", "rupee": "INR",
    "rupees": "INR", "inr": "INR", "won": "KRW", "krw": "KRW", "peso": "MXN", "mexican peso": "MXN",
    "mexican pesos": "MXN", "mxn": "MXN", "hkd": "HKD", "sgd": "SGD", "bitcoin": "BTC", "btc": "BTC",
    # everyday and slang names, other currencies by name and sign, and their Chinese names
    "american dollar": "USD", "american dollars": "USD", "greenback": "USD", "greenbacks": "USD", "美金": "USD",
    "quid": "GBP", "sterling": "GBP", "英磅": "GBP", "euro cents": "EUR", "円": "JPY", "yuan renminbi": "CNY",
    "人民币元": "CNY", "块钱": "CNY", "hong kong dollar": "HKD", "hong kong dollars": "HKD", "港币": "HKD", "港元": "HKD",
    "singapore dollar": "SGD", "singapore dollars": "SGD", "新加坡元": "SGD", "新币": "SGD", "加元": "CAD", "加币": "CAD",
    "澳元": "AUD", "澳币": "AUD", "new zealand dollar": "NZD", "new zealand dollars": "NZD", "nzd": "NZD", "纽元": "NZD",
    "瑞士法郎": "CHF", "瑞郎": "CHF", "korean won": "KRW", "south korean won": "KRW", "韩元": "KRW", "₩": "KRW",
    "卢比": "INR", "印度卢比": "INR", "₹": "INR", "russian ruble": "RUB", "russian rubles": "RUB", "ruble": "RUB",
    "rubles": "RUB", "rouble": "RUB", "roubles": "RUB", "rub": "RUB", "卢布": "RUB", "₽": "RUB", "thai baht": "THB",
    "baht": "THB", "thb": "THB", "泰铢": "THB", "brazilian real": "BRL", "brazilian reais": "BRL", "reais": "BRL",
    "brl": "BRL", "雷亚尔": "BRL", "墨西哥比索": "MXN", "比索": "MXN", "swedish krona": "SEK", "swedish kronor": "SEK",
    "sek": "SEK", "瑞典克朗": "SEK", "norwegian krone": "NOK", "nok": "NOK", "danish krone": "DKK", "dkk": "DKK",
    "turkish lira": "TRY", "土耳其里拉": "TRY", "south african rand": "ZAR", "zar": "ZAR", "南非兰特": "ZAR",
    "新台币": "TWD", "台币": "TWD", "twd": "TWD", "new taiwan dollar": "TWD", "new taiwan dollars": "TWD",
    "比特币": "BTC", "₿": "BTC", "ethereum": "ETH", "eth": "ETH", "以太坊": "ETH",
}

#: Companies -> ticker symbol (for parameters that ask for a "ticker" or "symbol").
TICKERS: dict[str, str] = {
    "apple": "AAPL", "microsoft": "MSFT", "google": "GOOGL", "alphabet": "GOOGL", "amazon": "AMZN",
    "meta": "META", "facebook": "META", "tesla": "TSLA", "nvidia": "NVDA", "netflix": "NFLX", "intel": "INTC",
    "ibm": "IBM", "oracle": "ORCL", "amd": "AMD", "salesforce": "CRM", "adobe": "ADBE", "walmart": "WMT",
    "coca-cola": "KO", "coca cola": "KO", "disney": "DIS", "nike": "NKE", "boeing": "BA", "visa": "V",
    "jpmorgan": "JPM", "goldman sachs": "GS", "berkshire hathaway": "BRK.A", "alibaba": "BABA",
    "tencent": "TCEHY", "baidu": "BIDU", "uber": "UBER", "paypal": "PYPL", "starbucks": "SBUX",
    "mcdonald's": "MCD", "pfizer": "PFE", "exxon": "XOM", "general electric": "GE", "ford": "F",
    "jd": "JD", "jd.com": "JD", "pinduoduo": "PDD", "netease": "NTES", "nio": "NIO", "spotify": "SPOT",
    "airbnb": "ABNB", "shopify": "SHOP", "palantir": "PLTR", "qualcomm": "QCOM", "broadcom": "AVGO", "cisco": "CSCO",
    # the same companies as Chinese users name them
    "特斯拉": "TSLA", "苹果公司": "AAPL", "苹果": "AAPL", "微软": "MSFT", "谷歌": "GOOGL", "英伟达": "NVDA",
    "亚马逊": "AMZN", "脸书": "META", "奈飞": "NFLX", "英特尔": "INTC", "甲骨文": "ORCL", "超威": "AMD", "阿里巴巴": "BABA",
    "阿里": "BABA", "腾讯": "TCEHY", "百度": "BIDU", "京东": "JD", "拼多多": "PDD", "网易": "NTES", "蔚来": "NIO",
    "波音": "BA", "可口可乐": "KO", "迪士尼": "DIS", "耐克": "NKE", "星巴克": "SBUX", "麦当劳": "MCD", "辉瑞": "PFE",
    "高通": "QCOM", "思科": "CSCO", "台积电": "TSM", "tsmc": "TSM",
}

#: Places whose IANA time zone their name does not spell (the tz database names zones after one city each:
#: "America/Los_Angeles" for San Francisco too); cities that name a zone need no entry (see :mod:`.timezones`).
ZONES: dict[str, str] = {
    **dict.fromkeys(("san francisco", "seattle", "san diego", "san jose", "sacramento", "oakland", "berkeley",
                     "palo alto", "portland", "las vegas"), "America/Los_Angeles"),
    **dict.fromkeys(("boston", "washington", "washington dc", "washington d.c.", "miami", "atlanta", "philadelphia",
                     "pittsburgh", "baltimore", "orlando", "tampa", "charlotte", "raleigh", "cleveland", "columbus",
                     "cincinnati", "brooklyn", "manhattan", "new york city", "nyc"), "America/New_York"),
    **dict.fromkeys(("houston", "dallas", "austin", "san antonio", "minneapolis", "nashville", "memphis",
                     "new orleans", "kansas city", "st. louis", "milwaukee", "omaha"), "America/Chicago"),
    **dict.fromkeys(("salt lake city", "albuquerque"), "America/Denver"),
    **dict.fromkeys(("beijing", "shenzhen", "guangzhou", "hangzhou", "chengdu", "wuhan", "nanjing", "xi'an", "tianjin",
                     "suzhou", "qingdao", "harbin", "xiamen", "dalian", "kunming", "changsha", "zhengzhou", "shenyang",
                     "jinan", "hefei", "lhasa", "sanya", "guilin", "chongqing", "china"), "Asia/Shanghai"),
    **dict.fromkeys(("osaka", "kyoto", "japan"), "Asia/Tokyo"),
    **dict.fromkeys(("mumbai", "delhi", "new delhi", "bangalore", "bengaluru", "chennai", "hyderabad", "india"),
                    "Asia/Kolkata"),
    **dict.fromkeys(("milan", "venice", "florence", "italy"), "Europe/Rome"),
    **dict.fromkeys(("barcelona", "spain"), "Europe/Madrid"),
    **dict.fromkeys(("munich", "frankfurt", "hamburg", "germany"), "Europe/Berlin"),
    **dict.fromkeys(("geneva", "switzerland"), "Europe/Zurich"),
    **dict.fromkeys(("edinburgh", "manchester", "united kingdom", "uk", "england", "britain"), "Europe/London"),
    **dict.fromkeys(("lyon", "marseille", "france"), "Europe/Paris"),
    "hanoi": "Asia/Bangkok", "vietnam": "Asia/Ho_Chi_Minh", "south korea": "Asia/Seoul", "korea": "Asia/Seoul",
    "thailand": "Asia/Bangkok", "indonesia": "Asia/Jakarta", "philippines": "Asia/Manila", "egypt": "Africa/Cairo",
    "nigeria": "Africa/Lagos", "kenya": "Africa/Nairobi", "turkey": "Europe/Istanbul", "new zealand": "Pacific/Auckland",
    "ireland": "Europe/Dublin", "portugal": "Europe/Lisbon", "greece": "Europe/Athens", "poland": "Europe/Warsaw",
    "sweden": "Europe/Stockholm", "norway": "Europe/Oslo", "belgium": "Europe/Brussels", "austria": "Europe/Vienna",
    "netherlands": "Europe/Amsterdam", "israel": "Asia/Jerusalem", "united arab emirates": "Asia/Dubai",
    "uae": "Asia/Dubai", "saudi arabia": "Asia/Riyadh", "pakistan": "Asia/Karachi", "singapore": "Asia/Singapore",
    "utc": "UTC", "gmt": "Etc/GMT", "北京时间": "Asia/Shanghai",
}

#: Units: surface form -> (canonical symbol, dimension). Longer forms are tried first.
UNITS: dict[str, tuple[str, str]] = {}


def _units(dimension: str, canonical: str, *forms: str) -> None:
    for f in (canonical, *forms):
        UNITS[f] = (canonical, dimension)


_units("time", "s", "sec", "secs", "second", "seconds", "秒")
_units("time", "ms", "millisecond", "milliseconds", "毫秒")
_units("time", "min", "mins", "minute", "minutes", "分钟")
_units("time", "h", "hr", "hrs", "hour", "hours", "小时")
_units("time", "day", "days", "天")
_units("time", "week", "weeks", "周", "星期")
_units("time", "month", "months", "个月")
_units("time", "year", "years", "yr", "yrs", "年")
_units("time", "decade", "decades")
_units("time", "generation", "generations")
_units("length", "m", "meter", "meters", "metre", "metres", "米")
_units("length", "km", "kilometer", "kilometers", "kilometre", "kilometres", "公里", "千米")
_units("length", "cm", "centimeter", "centimeters", "centimetre", "centimetres", "厘米", "公分")
_units("length", "mm", "millimeter", "millimeters", "millimetre", "millimetres", "毫米")
_units("length", "dm", "decimeter", "decimeters", "decimetre", "decimetres", "分米")
_units("length", "µm", "micrometer", "micrometers", "micron", "microns", "微米")
_units("length", "nmi", "nautical mile", "nautical miles", "海里")
_units("length", "mi", "mile", "miles", "英里")
_units("length", "ft", "foot", "feet", "英尺")
_units("length", "in", "inch", "inches", "英寸")
_units("length", "yd", "yard", "yards", "码")
_units("length", "ly", "light year", "light years", "light-year", "light-years")
_units("area", "m²", "m^2", "m2", "square meter", "square meters", "square metre", "square metres", "sq m",
       "sqm", "平方米", "平米")
_units("area", "ft²", "ft^2", "sq ft", "sq. ft", "sq. ft.", "sqft", "square foot", "square feet", "平方英尺")
_units("area", "km²", "km^2", "square kilometer", "square kilometers", "sq km", "平方公里", "平方千米")
_units("area", "acre", "acres", "英亩")
_units("area", "hectare", "hectares", "ha", "公顷")
_units("volume", "m³", "m^3", "cubic meter", "cubic meters", "cubic metre", "cubic metres", "立方米")
_units("volume", "L", "l", "liter", "liters", "litre", "litres", "升", "公升")
_units("volume", "ml", "mL", "milliliter", "milliliters", "millilitre", "millilitres", "毫升")
_units("volume", "gal", "gallon", "gallons", "加仑")
_units("volume", "tsp", "teaspoon", "teaspoons")
_units("volume", "tbsp", "tablespoon", "tablespoons")
_units("volume", "cup", "cups")
_units("volume", "pt", "pint", "pints")
_units("volume", "qt", "quart", "quarts")
_units("volume", "fl oz", "fluid ounce", "fluid ounces")
_units("mass", "kg", "kilogram", "kilograms", "kgs", "kilo", "kilos", "kilogramme", "kilogrammes", "公斤", "千克")
_units("mass", "g", "gram", "grams", "gramme", "grammes", "克")
_units("mass", "mg", "milligram", "milligrams", "毫克")
_units("mass", "lb", "lbs", "pound-mass", "磅")
_units("mass", "oz", "ounce", "ounces", "盎司")
_units("mass", "t", "ton", "tons", "tonne", "tonnes", "吨")
_units("speed", "m/s", "meters/second", "meters per second", "metres per second", "mps", "米每秒", "米/秒")
_units("speed", "km/h", "kmh", "kph", "kilometers per hour", "kilometres per hour", "km per hour", "公里每小时",
       "千米每小时", "公里/小时")
_units("speed", "mph", "miles per hour", "英里每小时")
_units("acceleration", "m/s^2", "m/s²", "m/s2", "meters/second^2", "meters per second squared")
_units("temperature", "°C", "°c", "celsius", "degrees celsius", "degree celsius", "degrees c", "摄氏度", "度")
_units("temperature", "°F", "°f", "fahrenheit", "degrees fahrenheit", "degree fahrenheit", "degrees f", "华氏度")
_units("temperature", "K", "kelvin", "kelvins", "degrees kelvin", "开尔文", "开氏度")
_units("temperature", "degrees", "degree")
_units("percent", "%", "percent", "per cent", "pct", "％")
_units("current", "A", "amp", "amps", "ampere", "amperes")
_units("voltage", "V", "volt", "volts")
_units("resistance", "Ω", "ohm", "ohms")
_units("charge", "C", "coulomb", "coulombs")
_units("capacitance", "F", "farad", "farads")
_units("capacitance", "µF", "uF", "microfarad", "microfarads")
_units("inductance", "H", "henry", "henries")
_units("inductance", "mH", "millihenry", "millihenries")
_units("magnetic", "T", "tesla", "teslas")
_units("power", "W", "watt", "watts", "kW", "kilowatt", "kilowatts")
_units("energy", "J", "joule", "joules", "kJ", "kilojoule", "kilojoules", "cal", "calories", "kcal", "kWh")
_units("frequency", "Hz", "hz", "hertz", "kHz", "MHz", "GHz")
_units("force", "N", "newton", "newtons")
_units("pressure", "Pa", "pascal", "pascals", "kPa", "atm", "atmosphere", "atmospheres", "bar", "psi", "mmHg")
_units("amount", "mol", "mole", "moles")
_units("angle", "rad", "radian", "radians")
_units("data", "GB", "MB", "KB", "TB", "bytes")
_units("money", "USD", "dollar", "dollars", "buck", "bucks", "美元", "美金")
_units("money", "EUR", "euro", "euros", "欧元")
_units("money", "GBP", "pounds", "pound", "quid", "英镑")
_units("money", "JPY", "yen", "日元")
_units("money", "CNY", "yuan", "rmb", "元", "块", "块钱", "人民币")

#: Dimension -> words a parameter about that dimension is likely to use.
DIMENSION_WORDS: dict[str, tuple[str, ...]] = {
    "time": ("time", "duration", "period", "year", "years", "day", "days", "hour", "hours", "minute", "minutes",
             "second", "seconds", "month", "months", "week", "weeks", "term", "interval", "timeframe", "age",
             "delay", "lifetime", "span", "horizon", "length of time", "decade", "generations", "generation"),
    "length": ("length", "distance", "height", "width", "radius", "diameter", "depth", "side", "base", "altitude",
               "elevation", "wavelength", "displacement", "proximity", "size", "perimeter", "range", "thickness",
               "circumference", "tall", "long", "far"),
    "area": ("area", "size", "surface", "footage", "space"),
    "volume": ("volume", "capacity"),
    "mass": ("mass", "weight", "weighs", "load"),
    "speed": ("speed", "velocity"),
    "acceleration": ("acceleration", "gravity", "accelerat"),
    "temperature": ("temperature", "temp", "heat"),
    "money": ("amount", "price", "cost", "income", "budget", "salary", "value", "investment", "principal",
              "revenue", "payment", "fee", "loan", "capital", "gain", "loss", "sum", "balance", "equity", "asset",
              "dividend", "tax", "rent", "expense", "sales", "profit", "earning", "deposit", "money", "cash",
              "spend", "worth", "wage", "pay", "debt", "bill", "charge", "premium", "fund", "contribution",
              "purchase", "net", "flow"),
    "percent": ("rate", "percent", "percentage", "ratio", "return", "growth", "yield", "interest", "discount",
                "probability", "share", "fraction", "proportion", "confidence", "efficiency", "humidity"),
    "current": ("current", "ampere"), "voltage": ("voltage", "volt", "potential", "emf"),
    "resistance": ("resistance", "ohm"), "charge": ("charge", "coulomb"), "capacitance": ("capacitance",),
    "inductance": ("inductance",), "magnetic": ("magnetic", "field", "tesla"), "power": ("power", "watt"),
    "energy": ("energy", "work", "heat", "joule", "calorie"), "frequency": ("frequency", "hertz", "hz"),
    "force": ("force", "newton", "weight"), "pressure": ("pressure", "atm", "pascal"),
    "amount": ("mole", "moles", "amount", "quantity"), "angle": ("angle", "radian", "degree"),
}


def city_state(city: str) -> str | None:
    """The US state code of a well-known US city, e.g. ``"Chicago"`` -> ``"IL"``."""
    return US_CITIES.get(city)


@functools.cache
def _cities() -> dict[str, dict[str, str]]:
    """``course_lib/data/cities.json`` (GeoNames, CC BY 4.0), read on first use."""
    return load_json("cities.json")


def city_region(city: str) -> tuple[str, str] | None:
    """Where a city is: ``("state", "CA")`` for a US city, ``("country", "Malaysia")`` for another, else None.

    For a place argument whose description asks for "City, State" or "City, Country". The small table
    above (:data:`US_CITIES`) comes first; then ``course_lib/data/cities.json`` (GeoNames: US places of
    8,000 people or more, other cities of 300,000 or more; a name shared by places of similar size is
    not in it, so "Springfield" stays unknown and the mock asks).

    Args:
        city: the city as written ("Campbell", "Kuala Lumpur"); matched exactly, then in title case.
    """
    code = US_CITIES.get(city)
    if code:
        return "state", code
    table = _cities()
    for name in (city, city.title()):
        if name in table["us"]:
            return "state", table["us"][name]
        if name in table["world"]:
            return "country", table["world"][name]
    return None


@functools.cache
def _country_codes() -> dict[str, str]:
    """``course_lib/data/country_codes.json`` (CLDR names -> ISO 3166-1 alpha-2), read on first use."""
    data = load_json("country_codes.json")
    return data["codes"]


def country_code(name: str) -> str | None:
    """``"France"`` -> ``"FR"``, ``"UK"`` -> ``"GB"``: a country's ISO 3166-1 alpha-2 code, else None."""
    return _country_codes().get(name)


def is_country_code(code: str) -> bool:
    """Whether ``code`` is the ISO code of a country this module knows (``"FR"``, ``"KE"``)."""
    return code in _country_codes().values()


def state_code(name: str) -> str | None:
    """``"California"`` -> ``"CA"``; a code is returned as is (``"CA"`` -> ``"CA"``)."""
    if name.upper() in US_STATES and len(name) == 2:
        return name.upper()
    return STATE_CODES.get(name.lower())


def currency_code(text: str) -> str | None:
    """``"euros"`` -> ``"EUR"``, ``"$"`` -> ``"USD"``; None when unknown."""
    return CURRENCIES.get(text.strip().lower())


def starts_with_one_of(literals) -> str:
    """A lookahead for the first characters of ``literals``: ``(?=[...])``, to put before their alternation.

    It changes no match (each literal starts with one of these characters, and under ``re.I`` a
    class folds case as a literal does), but the scan then rejects in one test the positions where
    no literal can start, instead of trying hundreds of alternatives there: several times faster on
    the long name lists read from every request (cities, countries, currencies).
    """
    return "(?=[" + "".join(sorted({re.escape(str(x)[0]) for x in literals if x})) + "])"


def _place_pattern() -> re.Pattern:
    names = set(CITIES) | set(US_CITIES) | set(COUNTRIES) | set(US_STATES.values())
    alts = sorted((re.escape(n) for n in names), key=len, reverse=True)
    return re.compile(r"(?<![A-Za-z])" + starts_with_one_of(names) + "(" + "|".join(alts) + r")(?![A-Za-z])")


PLACE_EN = _place_pattern()
_ZH_PLACES = {zh: en for en, zh in list(CITIES.items()) + list(COUNTRIES.items())}
PLACE_ZH = re.compile("|".join(sorted(map(re.escape, _ZH_PLACES), key=len, reverse=True)))


def place_kind(name: str) -> str | None:
    """``"city"``, ``"state"``, ``"country"`` or None for a name in the tables."""
    if name in CITIES or name in US_CITIES or name in _ZH_PLACES and _ZH_PLACES[name] in CITIES:
        return "city"
    if name in STATE_CODES or name.lower() in STATE_CODES:
        return "state"
    if name in COUNTRIES or name in _ZH_PLACES:
        return "country"
    return None


#: Kinds of things a parameter may ask for, with common members: what a model knows when it
#: fills ``genre`` with "jazz" or ``cuisine`` with "sushi". Keyed by the concept; a slot whose
#: name names the concept (or whose description names it) reads members from the request.
CATEGORIES: dict[str, frozenset[str]] = {k: frozenset(v.split(",")) for k, v in {
    "genre": "rock,pop,jazz,blues,classical,country,hip hop,hip-hop,rap,r&b,soul,funk,metal,heavy metal,punk,"
             "reggae,folk,electronic,edm,techno,house,disco,gospel,indie,latin,k-pop,opera,ambient,"
             "action,comedy,drama,horror,thriller,romance,sci-fi,science fiction,fantasy,documentary,animation,"
             "mystery,adventure,western,musical,crime,biography,fiction,non-fiction,poetry,strategy,puzzle,"
             "rpg,role-playing,shooter,sports,racing,simulation,platformer",
    "cuisine": "italian,chinese,japanese,mexican,indian,thai,french,greek,spanish,korean,vietnamese,american,"
               "mediterranean,middle eastern,lebanese,turkish,ethiopian,brazilian,german,british,caribbean,"
               "sushi,pizza,seafood,steakhouse,barbecue,bbq,vegan,vegetarian,tapas,ramen,burger,burgers,dim sum",
    "diet": "vegan,vegetarian,gluten-free,gluten free,keto,ketogenic,paleo,low-carb,low carb,dairy-free,"
            "dairy free,nut-free,halal,kosher,pescatarian,low-fat,low fat,low-sodium,sugar-free",
    "meal": "breakfast,brunch,lunch,dinner,supper,snack,dessert,appetizer,main course,side dish",
    "color": "red,orange,yellow,green,blue,purple,violet,pink,brown,black,white,gray,grey,silver,gold,navy,"
             "maroon,teal,cyan,magenta,beige,turquoise,indigo,crimson,olive,lime,lavender",
    "size": "tiny,small,medium,large,big,huge,extra large,mini,compact,regular,giant",
    "sport": "football,soccer,basketball,baseball,tennis,golf,cricket,rugby,hockey,ice hockey,volleyball,"
             "badminton,swimming,boxing,cycling,running,athletics,skiing,table tennis,formula 1,f1,chess",
    "gender": "men,women,male,female,man,woman,boys,girls,mens,womens,men's,women's",
    "day": "monday,tuesday,wednesday,thursday,friday,saturday,sunday,weekday,weekend,today,tomorrow",
    "month": "january,february,march,april,may,june,july,august,september,october,november,december",
    "season": "spring,summer,autumn,fall,winter",
    "language": "english,chinese,mandarin,cantonese,spanish,french,german,italian,japanese,korean,portuguese,"
                "russian,arabic,hindi,dutch,swedish,turkish,greek,polish,vietnamese,thai,hebrew,latin,danish,"
                "norwegian,finnish,czech,hungarian,romanian,ukrainian,indonesian,malay,persian,bengali,urdu,tamil,"
                "swahili,filipino,tagalog,catalan,bulgarian,croatian,serbian,slovak,slovenian",
    "instrument": "piano,guitar,violin,cello,viola,flute,clarinet,saxophone,trumpet,trombone,drums,drum,bass,"
                  "harp,ukulele,keyboard,organ,oboe,banjo,harmonica,accordion,synthesizer",
    "material": "marble,bronze,wood,stone,steel,iron,glass,plastic,clay,granite,copper,aluminum,aluminium,"
                "gold,silver,concrete,brick,leather,cotton,wool,silk,paper,ceramic,titanium",
    "fuel": "gas,gasoline,petrol,diesel,electric,hybrid,ev,hydrogen,solar,wind,nuclear,coal,renewable",
    "transport": "driving,walking,cycling,biking,transit,public transport,public transportation,bus,train,"
                 "subway,metro,car,bike,bicycle,plane,flight,ferry,taxi",
    "platform": "pc,windows,mac,macos,linux,playstation,ps4,ps5,xbox,switch,nintendo switch,ios,android,"
                "steam,web,mobile",
    "level": "beginner,intermediate,advanced,expert,easy,medium,hard,basic",
    "planet": "mercury,venus,earth,mars,jupiter,saturn,uranus,neptune,pluto,moon,sun",
    "animal": "dog,cat,bird,fish,horse,cow,pig,sheep,goat,chicken,lion,tiger,elephant,bear,wolf,fox,deer,"
              "rabbit,mouse,rat,monkey,chimpanzee,chimp,gorilla,whale,dolphin,shark,snake,frog,eagle,owl,"
              "human,bacteria,butterfly,bee,ant",
    "weather": "sunny,rainy,cloudy,snowy,windy,stormy,foggy",
    "religion": "christianity,islam,judaism,buddhism,hinduism,sikhism,taoism,shinto,confucianism,catholicism,"
                "protestantism,orthodoxy,jainism,zoroastrianism",
}.items()}

#: Slot words that name each category (stems of parameter names and description words).
CATEGORY_WORDS: dict[str, tuple[str, ...]] = {
    "genre": ("genre", "style", "music_type", "category"),
    "cuisine": ("cuisine", "food_type", "food", "cuisine_type"),
    "diet": ("diet", "dietary", "restriction", "preference"),
    "meal": ("meal", "course", "meal_type", "mealtime"),
    "color": ("color", "colour", "shade", "hue"),
    "size": ("size",),
    "sport": ("sport",),
    "gender": ("gender", "sex"),
    "day": ("day", "weekday"),
    "month": ("month",),
    "season": ("season",),
    "language": ("language", "lang", "locale"),
    "instrument": ("instrument",),
    "material": ("material", "medium"),
    "fuel": ("fuel", "energy", "vehicle", "power", "engine"),
    "transport": ("mode", "transport", "transportation", "travel", "transit", "means"),
    "platform": ("platform", "console", "system", "device"),
    "level": ("level", "difficulty", "skill"),
    "planet": ("planet", "body", "celestial"),
    "animal": ("species", "animal", "organism", "creature", "pet"),
    "weather": ("condition", "weather"),
    "religion": ("religion", "faith", "belief"),
}


def category_of(words: list[str]) -> str | None:
    """The category a parameter asks for, from its name's words: ``["music", "genre"]`` -> ``"genre"``."""
    for cat, names in CATEGORY_WORDS.items():
        for w in words:
            if w in names:
                return cat
    return None


_CATEGORY_RX: dict[str, re.Pattern] = {
    cat: re.compile(r"(?<![\w-])(" + "|".join(sorted(map(re.escape, members), key=len, reverse=True))
                    + r")(?:s|es)?(?:-(?:powered|fueled|fuelled|based|style|type|driven))?(?![\w-])", re.I)
    for cat, members in CATEGORIES.items()}


def category_members(category: str, text: str) -> list[tuple[str, int, int]]:
    """Members of ``category`` named in ``text`` as ``(words as written, start, end)``, in order."""
    rx = _CATEGORY_RX.get(category)
    if rx is None:
        return []
    return [(m.group(1), m.start(1), m.end(1)) for m in rx.finditer(text)]


#: Chinese unit names that are units wherever they stand (not 米 in 大米 or 度 in 温度: those need a number).
_ZH_UNIT_WORDS = re.compile("|".join(sorted((re.escape(k) for k in UNITS if re.match(r"[\u3400-\u9fff]", k)
                                             and (len(k) >= 2 or k in ("磅",))), key=len, reverse=True)))


#: A one-character unit a question asks in ("是多少米", "华氏多少度": 华氏度, a scale before 多少 is the unit's) or
#: a conversion turns into ("换算成克", "换成米").
_ZH_ASKED_UNIT = re.compile(r"(华氏|摄氏|开氏)?(?:多少|几|换算成|换成|转换成|转成|折合成?)(" + "|".join(
    k for k in UNITS if len(k) == 1 and re.match(r"[\u3400-\u9fff]", k)) + ")")


def chinese_units(text: str) -> list[tuple[str, tuple[str, str], int]]:
    """``(word, (unit, dimension), position)`` of the Chinese unit names in ``text`` ("换成磅" -> 磅, lb, mass;
    "是华氏多少度" -> 华氏度, °F)."""
    if text.isascii():
        return []  # a fast path: every such name, and every word that asks for one (多少, 换成...), is Chinese
    out = [(m.group(0), UNITS[m.group(0)], m.start()) for m in _ZH_UNIT_WORDS.finditer(text)]
    for m in _ZH_ASKED_UNIT.finditer(text):
        word = (m.group(1) or "") + m.group(2)
        if word in UNITS and not any(at <= m.start(2) < at + len(w) for w, _, at in out):
            out.append((word, UNITS[word], m.start(2) if not m.group(1) else m.start(1)))
    return sorted(out, key=lambda u: u[2])

"""The same weather call in three styles: REST, JSON-RPC 2.0 and gRPC (protobuf on the wire).

Seed 003 compares them: REST is resource-oriented (HTTP verbs + URLs), gRPC is binary
(Protocol Buffers), strongly typed through an IDL, with several streaming modes; JSON-RPC
sits in between: light, text, easy to implement, with no built-in type system (JSON
Schema fills that gap, which is what MCP does). :func:`compare` makes the *same* call in
each style for real and returns the bytes that travelled, so the lesson can put them side
by side.

Deliberate shortcut: no gRPC server runs here (``grpcio`` would be one more large
install). The gRPC column shows the exact protobuf payload gRPC would frame into HTTP/2,
encoded and decoded with the ``protobuf`` library gRPC itself uses.

Taught in lesson 07.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .examples import get_weather

#: The interface definition gRPC needs before any call (the "IDL" of seed 003).
WEATHER_PROTO = """syntax = "proto3";
package weather;
service Weather {
  rpc GetWeather (WeatherRequest) returns (WeatherReply);
}
message WeatherRequest { string city = 1; string unit = 2; }
message WeatherReply   { int32 temp = 1; int32 humidity = 2; }"""


@dataclass
class StyleCall:
    """One call in one style: what was sent, what came back, and their sizes in bytes."""

    style: str
    request: str
    reply: str
    request_bytes: int
    reply_bytes: int

    def __repr__(self) -> str:
        return f"StyleCall({self.style}: {self.request_bytes} B -> {self.reply_bytes} B)"


def weather_messages() -> tuple[type, type]:
    """The protobuf classes ``(WeatherRequest, WeatherReply)`` of :data:`WEATHER_PROTO`.

    Built at run time from a descriptor (what ``protoc`` would generate as code).
    """
    from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

    F = descriptor_pb2.FieldDescriptorProto
    fdp = descriptor_pb2.FileDescriptorProto(name="course_weather.proto", package="weather", syntax="proto3")
    req = fdp.message_type.add(name="WeatherRequest")
    req.field.add(name="city", number=1, type=F.TYPE_STRING, label=F.LABEL_OPTIONAL)
    req.field.add(name="unit", number=2, type=F.TYPE_STRING, label=F.LABEL_OPTIONAL)
    rep = fdp.message_type.add(name="WeatherReply")
    rep.field.add(name="temp", number=1, type=F.TYPE_INT32, label=F.LABEL_OPTIONAL)
    rep.field.add(name="humidity", number=2, type=F.TYPE_INT32, label=F.LABEL_OPTIONAL)
    pool = descriptor_pool.DescriptorPool()
    pool.Add(fdp)
    return (message_factory.GetMessageClass(pool.FindMessageTypeByName("weather.WeatherRequest")),
            message_factory.GetMessageClass(pool.FindMessageTypeByName("weather.WeatherReply")))


def weather_app() -> Any:
    """An ASGI app exposing the weather twice: ``GET /weather/{city}`` (REST) and ``POST /rpc`` (JSON-RPC)."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response
    from starlette.routing import Route

    from .json_rpc import Dispatcher

    rpc = Dispatcher()
    rpc.add(get_weather, "get_weather")

    async def rest(request: Request) -> Response:
        try:
            data = get_weather(request.path_params["city"], request.query_params.get("unit", "celsius"))
        except LookupError as e:
            return JSONResponse({"detail": str(e)}, status_code=404)  # REST speaks in status codes
        return JSONResponse(data)

    async def jsonrpc(request: Request) -> Response:
        reply = rpc.handle(await request.body())
        return Response(status_code=204) if reply is None else Response(reply, media_type="application/json")

    return Starlette(routes=[Route("/weather/{city}", rest, methods=["GET"]),
                             Route("/rpc", jsonrpc, methods=["POST"])])


def compare(base_url: str, city: str = "Tokyo", unit: str = "celsius") -> list[StyleCall]:
    """Make the same weather call in the three styles; ``base_url`` serves :func:`weather_app`.

    Returns:
        One :class:`StyleCall` per style: REST, JSON-RPC, gRPC (protobuf payloads).
    """
    import httpx

    calls = []
    r = httpx.get(f"{base_url}/weather/{city}", params={"unit": unit}, timeout=10)
    request_line = f"GET /weather/{city}?unit={unit}"
    calls.append(StyleCall("REST", request_line, r.text, len(request_line), len(r.content)))

    body = json.dumps({"jsonrpc": "2.0", "method": "get_weather", "params": {"city": city, "unit": unit}, "id": 1})
    r = httpx.post(f"{base_url}/rpc", content=body, headers={"Content-Type": "application/json"}, timeout=10)
    calls.append(StyleCall("JSON-RPC", f"POST /rpc {body}", r.text, len(body), len(r.content)))

    Request, Reply = weather_messages()
    sent = Request(city=city, unit=unit).SerializeToString()
    decoded = Request.FromString(sent)  # what the server's generated code would see
    got = Reply(**get_weather(decoded.city, decoded.unit)).SerializeToString()
    calls.append(StyleCall("gRPC", f"/weather.Weather/GetWeather {sent!r}", repr(got), len(sent), len(got)))
    return calls


#: What each style gives (seed 003's comparison, one row per property).
STYLE_TABLE = [
    ("model", "resources + HTTP verbs", "procedures (method + params)", "procedures from an IDL (.proto)"),
    ("wire format", "any (usually JSON text)", "JSON text", "protobuf binary in HTTP/2 frames"),
    ("typing", "OpenAPI (optional)", "none built in; add JSON Schema", "strong, generated from the IDL"),
    ("streaming", "not natively (SSE/WebSocket)", "transport's job (SSE, stdio lines)", "4 modes incl. bidirectional"),
    ("server -> client calls", "no", "yes: both sides may send requests", "via bidirectional streams"),
    ("batching", "no", "yes (arrays)", "no (use streams)"),
    ("tooling to start", "curl", "any JSON library", "protoc + generated stubs"),
]

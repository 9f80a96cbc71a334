"""An identifier-shaped slot takes the identifier-shaped token (issue 13, kind 'values'): a tracking number, a
booking code, a serial number or a VIN that starts with digits and mixes in letters is one code ('1Z999AA10123456784'
was not read at all, and the carrier's name 'UPS' filled tracking_number); an airport given with its code in
brackets ('Paris (CDG)') fills a slot that asks for IATA codes with the code. Our own tools, through the openai SDK."""
from __future__ import annotations

import pytest

from course_lib.mock_llm.reading import read
from mock_support import calls, client, tool  # noqa: F401 (client: the module's fixture)


def _s(desc: str) -> dict:
    return {"type": "string", "description": desc}


TRACK = tool("track_package", "Track a parcel shipment", {"tracking_number": _s("The carrier's tracking number")})
BOOKING = tool("get_booking", "Look up a flight booking", {"confirmation_code": _s("The booking confirmation code")})
SERIAL = tool("register_device", "Register a device by serial number", {"serial_number": _s("Device serial number")})
VIN = tool("decode_vin", "Decode a vehicle identification number", {"vin": _s("17-character VIN")})
INVOICE = tool("get_invoice", "Fetch an invoice", {"invoice_number": _s("Invoice number")})
FLIGHTS = tool("search_flights", "Search flights between airports", {
    "origin": _s("IATA code of the departure airport"), "destination": _s("IATA code of the arrival airport")})
BOOK_FLIGHT = tool("book_flight", "Book a flight", {
    "from_airport": _s("Departure airport code"), "to_airport": _s("Arrival airport code")})
ROUTE = tool("flight_route", "Flights between two airports", {"origin_iata": {"type": "string"},
                                                              "destination_iata": {"type": "string"}})
CITY_FLIGHTS = tool("find_flights", "Find flights between two cities", {
    "from_city": _s("Departure city name"), "to_city": _s("Arrival city name")})


@pytest.mark.parametrize("token", ["1Z999AA10123456784", "4X7QPZ", "5CD1234XYZ", "1HGCM82633A004352", "2024INV00981"])
def test_a_digit_led_alphanumeric_token_is_one_code(token):
    assert [(m.kind, m.value) for m in read(f"look up {token} please").mentions] == [("code", token)]


@pytest.mark.parametrize("text", ["a 10x20cm frame", "at 10am tomorrow", "a 5km run", "the 3rd floor"])
def test_sizes_times_and_measures_stay_what_they_were(text):
    assert not read(text).of_kind("code")


@pytest.mark.parametrize("text, tools, want", [
    ("Track my UPS package 1Z999AA10123456784", [TRACK], ("track_package", {"tracking_number": "1Z999AA10123456784"})),
    ("Where's my FedEx package 794644790132?", [TRACK], ("track_package", {"tracking_number": "794644790132"})),
    ("帮我查快递单号 1Z999AA10123456784 的物流", [TRACK], ("track_package", {"tracking_number": "1Z999AA10123456784"})),
    ("Look up Lufthansa booking 4X7QPZ", [BOOKING], ("get_booking", {"confirmation_code": "4X7QPZ"})),
    ("Register my Sony device with serial 5CD1234XYZ", [SERIAL], ("register_device", {"serial_number": "5CD1234XYZ"})),
    ("Decode the VIN 1HGCM82633A004352 of my Honda", [VIN], ("decode_vin", {"vin": "1HGCM82633A004352"})),
    ("Find my IKEA invoice 2024INV00981", [INVOICE], ("get_invoice", {"invoice_number": "2024INV00981"})),
])
def test_an_identifier_slot_takes_the_identifier_not_the_brand(client, text, tools, want):
    assert calls(client, text, tools) == [want]


@pytest.mark.parametrize("text, tools, want", [
    ("Find flights from Paris (CDG) to Tokyo (NRT)", [FLIGHTS],
     ("search_flights", {"origin": "CDG", "destination": "NRT"})),
    ("Book a flight from London (LHR) to New York (JFK)", [BOOK_FLIGHT],
     ("book_flight", {"from_airport": "LHR", "to_airport": "JFK"})),
    ("帮我查从上海(PVG)到东京(HND)的航班", [FLIGHTS], ("search_flights", {"origin": "PVG", "destination": "HND"})),
    ("Any flights from Berlin (BER) to Rome (FCO)?", [ROUTE],
     ("flight_route", {"origin_iata": "BER", "destination_iata": "FCO"})),
    ("Search flights from SFO to SEA", [FLIGHTS], ("search_flights", {"origin": "SFO", "destination": "SEA"})),
])
def test_an_airport_code_in_brackets_fills_a_code_slot(client, text, tools, want):
    assert calls(client, text, tools) == [want]


def test_a_city_slot_keeps_the_city_beside_its_code(client):
    assert calls(client, "Find flights from Paris (CDG) to Tokyo (NRT)", [CITY_FLIGHTS]) == [
        ("find_flights", {"from_city": "Paris", "to_city": "Tokyo"})]


TRACK_PACKAGE = tool("track_package", "Track a package", {"tracking_number": _s("Tracking number")})
WEATHER = tool("get_weather", "Weather for a city", {"city": _s("City")})


@pytest.mark.parametrize("text, number", [("Where is my FedEx parcel 794644790132?", "794644790132"),
                                          ("Where's my parcel 1Z999AA10123456784?", "1Z999AA10123456784"),
                                          ("Where are my packages JD014600006281230704", "JD014600006281230704")])
def test_where_is_my_parcel_tracks_it(client, text, number):
    """'Where is my parcel' asks a tracking tool (parcel ~ package; on main: no tool)."""
    assert calls(client, text, [TRACK_PACKAGE, WEATHER]) == [("track_package", {"tracking_number": number})]


def test_where_is_a_place_tracks_nothing(client):
    assert isinstance(calls(client, "Where is my hotel?", [TRACK_PACKAGE]), str)

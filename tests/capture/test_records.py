"""The capture format: what a file holds, and the messages a broken file gets."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcbews_repl.capture import CallRecord, Capture, EndRecord, FrameRecord, Header, read_capture
from mcbews_repl.capture.records import encode_line, json_depth
from mcbews_repl.exceptions import CaptureError
from mcbews_repl.limits import (
    CAPTURE_JSON_DEPTH_MAX,
    CAPTURE_LINE_MAX_BYTES,
    CAPTURE_MAX_BYTES,
)


def json_values() -> st.SearchStrategy[object]:
    """Any JSON value; strings full of brackets, quotes and backslashes."""
    tricky = st.text(alphabet=st.sampled_from('[]{}"\\ax\u00e9\n'), max_size=12)
    leaves = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | tricky
    return st.recursive(
        leaves,
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(tricky, inner, max_size=4),
        max_leaves=30,
    )


def _depth(value: object) -> int:
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    return 0


def sample() -> Capture:
    header = Header(package="mcbews-repl test", started=1.0, games={"1": {"local_player": "S"}})
    records = [
        FrameRecord(0.1, 1, "out", '{"header":{},"body":{}}'),
        FrameRecord(0.2, 1, "in", None, b"\x00\xffbinary"),
        FrameRecord(0.3, 1, "in", '{"head', cut=70_000),
        CallRecord(0.4, 1, "command", 0.1, 0.3, {"line": "say 你好"}, {"status_code": 0}),
    ]
    return Capture(header, records, EndRecord(0.5, "stopped", 3, 1, 400))


def test_a_capture_round_trips_through_its_file(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    sample().write(path)
    back = read_capture(path)
    assert back.header.games == {"1": {"local_player": "S"}}
    assert back.records == sample().records and back.end == sample().end
    assert back.connections() == [1] and len(back.frames) == 3 and len(back.calls) == 1
    lines = path.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0])["format"] == "mcbews-capture" and "你好" in lines[4]


def test_lone_surrogates_are_escaped_so_the_file_stays_utf8() -> None:
    line = encode_line({"type": "frame", "text": "bad \ud800 text"})
    assert json.loads(line)["text"] == "bad \ud800 text"
    assert b"\\ud800" in line


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("", "is empty: a capture starts with its header line"),
        ('{"type": "frame", "t": 0, "conn": 1, "dir": "in", "text": "x"}\n', "line 1: a capture"),
        ('{"type": "header", "format": "other"}\n', "line 1: not a capture record"),
        ("not json\n", "line 1: not a capture record"),
    ],
)
def test_a_broken_file_says_which_line_and_why(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(CaptureError, match=message):
        read_capture(path)


def test_a_second_header_an_unknown_record_and_a_newer_format_are_refused(
    tmp_path: Path,
) -> None:
    header = encode_line(Header("p", 0.0).to_json()).decode()
    cases = {
        header + header: "line 2: a second header",
        header + '{"type": "gossip"}\n': "line 2: not a capture record .*unknown record type",
        header.replace('"version":1', '"version":9'): "format version 9",
    }
    for content, message in cases.items():
        path = tmp_path / "bad.jsonl"
        path.write_text(content, encoding="utf-8")
        with pytest.raises(CaptureError, match=message):
            read_capture(path)


def test_a_missing_or_binary_file_gets_a_clear_message(tmp_path: Path) -> None:
    with pytest.raises(CaptureError, match=r"cannot read the capture .*nothing\.jsonl"):
        read_capture(tmp_path / "nothing.jsonl")
    (tmp_path / "blob").write_bytes(b"\xff\xfe\x00junk")
    with pytest.raises(CaptureError, match="not UTF-8 text"):
        read_capture(tmp_path / "blob")


def _header_line() -> str:
    return encode_line(Header("p", 0.0).to_json()).decode()


def test_a_deeply_nested_line_is_refused_before_it_is_parsed(tmp_path: Path) -> None:
    path = tmp_path / "deep.jsonl"
    deep = '{"type":"call","t":0,"request":' + "[" * 100_000 + "]" * 100_000 + "}\n"
    path.write_text(_header_line() + deep, encoding="utf-8")
    with pytest.raises(CaptureError) as refused:
        read_capture(path)
    message = str(refused.value)
    assert f"{path}, line 2:" in message
    assert f"nested more than {CAPTURE_JSON_DEPTH_MAX} levels deep" in message


def test_a_huge_line_is_refused_while_it_is_read_without_reading_it_whole(
    tmp_path: Path,
) -> None:
    path = tmp_path / "huge.jsonl"
    block = b"x" * (1 << 20)
    with open(path, "wb") as out:  # a 64 MiB line after the header, written a block at a time
        out.write(_header_line().encode())
        out.write(b'{"type":"frame","t":0,"conn":1,"dir":"in","text":"')
        for _ in range(64):
            out.write(block)
        out.write(b'"}\n')
    limit = CAPTURE_LINE_MAX_BYTES
    tracemalloc.start()
    try:
        with pytest.raises(CaptureError) as refused:
            read_capture(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert f"{path}, line 2: longer than {limit:,} bytes" in str(refused.value)
    assert peak < 3 * limit, f"{peak:,} bytes were allocated to refuse a 64 MiB line"


def test_the_default_line_limit_is_the_largest_recording(tmp_path: Path) -> None:
    assert CAPTURE_LINE_MAX_BYTES == CAPTURE_MAX_BYTES  # no default recording holds more
    path = tmp_path / "long.jsonl"
    line = {"type": "frame", "t": 0, "conn": 1, "dir": "in", "text": "y" * 2_000_000}
    path.write_bytes(_header_line().encode() + encode_line(line))
    assert read_capture(path).frames[0].text == "y" * 2_000_000


def test_a_capture_larger_than_its_bound_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "big.jsonl"
    frame = encode_line({"type": "frame", "t": 0, "conn": 1, "dir": "in", "text": "z" * 1000})
    path.write_bytes(_header_line().encode() + frame * 200)
    with pytest.raises(CaptureError, match=r"line \d+: the capture passes 100,000 bytes"):
        read_capture(path, max_bytes=100_000)
    assert len(read_capture(path).frames) == 200


@given(json_values())
def test_the_nesting_scan_agrees_with_the_parsed_value(value: object) -> None:
    text = json.dumps(value)
    assert json_depth(text) == _depth(value)


@given(st.text())
def test_the_nesting_scan_never_fails_on_any_text(text: str) -> None:
    assert json_depth(text) >= 0


def test_the_nesting_scan_stays_linear_on_an_unterminated_string_of_escaped_quotes() -> None:
    # Enough brackets to need the scan, then half a million escaped quotes never closed: a
    # scan that retried its string match from each quote would take hours on this line
    # (the suite's timeout fails it); each step of the scan is linear.
    line = "[" * 200 + '"' + '\\"' * 500_000
    assert json_depth(line) == 200
    assert json_depth('["a", "b\\\\"], "c') == 1

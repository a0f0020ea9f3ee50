"""The capture format: what a file holds, and the messages a broken file gets."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mcbews_repl.capture import CallRecord, Capture, EndRecord, FrameRecord, Header, read_capture
from mcbews_repl.capture.records import encode_line
from mcbews_repl.exceptions import CaptureError


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

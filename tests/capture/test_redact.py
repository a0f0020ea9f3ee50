"""Redaction: names, chat texts and the token go, consistently, even where the addon's
chunks cut a name in two; what is left still replays."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mcbews_repl.capture import CallRecord, Capture, FrameRecord, Header, read_capture, redact
from mcbews_repl.sansio import (
    Channel,
    dumps_wire,
    format_chunk,
    reassemble_chunks,
    split_payload,
)
from mcbews_repl.sansio.chunks import parse_chunk
from mcbews_repl.sansio.pull import Page, decode_reply, format_page, split_pages
from mcbews_repl.sansio.tags import TagMessage, encode_page_tags, read_tag_list
from mcbews_repl.sansio.wire import TAG_PAGE_BYTES
from mcbews_repl.testing import replay_capture

from ..corpus import lang
from .conftest import notebook_flow, recorded_session


def event(sender: str, message: str, kind: str = "tell") -> str:
    header = {"eventName": "PlayerMessage", "messagePurpose": "event", "version": 17039360}
    body = {"message": message, "receiver": sender, "sender": sender, "type": kind}
    return json.dumps({"header": header, "body": body})


def command(line: str, rid: str = "r1") -> str:
    header = {"requestId": rid, "messagePurpose": "commandRequest", "version": 1}
    return json.dumps({"header": header, "body": {"commandLine": line}})


def text_frame(index: int, content: str) -> str:
    frame = {"id": "t1", "i": index, "n": 2, "p": "Alex", "r": "assistant", "c": content}
    return "scriptevent mcbews:text_resp " + json.dumps(frame, separators=(",", ":"))


def chunks(channel: Channel, message_id: str, payload: str, cuts: list[int]) -> list[str]:
    pieces = [payload[a:b] for a, b in zip([0, *cuts], [*cuts, len(payload)], strict=True)]
    total = len(pieces)
    return [f"{channel.value}|{message_id}|{i}|{p}".replace(f"|{i}|", f"|{i}/{total}|", 1)
            for i, p in enumerate(pieces, 1)]  # fmt: skip


def capture_of(frames: list[tuple[str, str]], calls: list[CallRecord] = ()) -> Capture:  # type: ignore[assignment]
    header = Header(
        "p", 0.0, bridge={"url": "ws://127.0.0.1:1/abc123ef", "token": "abc123ef"},
        games={"1": {"local_player": "Steve", "peer": "10.0.0.7:5", "path": "/abc123ef"}},
    )  # fmt: skip
    records: list[Any] = [FrameRecord(i / 10, 1, d, t) for i, (d, t) in enumerate(frames)]
    return Capture(header, [*records, *calls])


def messages(capture: Capture) -> list[str]:
    return [json.loads(f.text or "{}")["body"].get("message", "") for f in capture.frames]


def test_a_name_cut_in_two_by_the_chunks_is_still_replaced() -> None:
    answer = json.dumps({"ok": True, "result": {"players": [{"name": "Steve", "id": "-1"}]}})
    cut = answer.index("Steve") + 3  # "Ste" | "ve"
    lines = chunks(Channel.BRIDGE, "a1b2c3d4e5f6", answer, [cut])
    capture = capture_of([("in", event("MCBEWS_BRIDGE", line)) for line in lines])
    redacted = redact(capture)
    parts = [parse_chunk(m) for m in messages(redacted)]
    whole = json.loads(reassemble_chunks(parts))
    assert whole["result"]["players"][0]["name"] == "Player1"
    assert all("Ste" not in m for m in messages(redacted))


def test_chat_ui_chat_and_texts_become_placeholders_everywhere() -> None:
    ui = split_payload(Channel.UI_CHAT, "ui-1-1", json.dumps({"player": "Alex", "message": "psst"}))
    frames = [
        ("in", event("Alex", "my secret", "chat")),
        *[("in", event("MCBEWS_BRIDGE", format_chunk(c))) for c in ui],
        ("out", command(text_frame(1, "hello "))),
        ("out", command(text_frame(2, "Alex"))),
        ("out", command("tag Alex list")),
    ]  # fmt: skip
    calls = [
        CallRecord(1.0, 1, "ui_chat", 1.0, 0.0, {}, {"player": "Alex", "message": "psst"}),
        CallRecord(1.1, 1, "text", 1.1, 0.1, {"player": "Alex", "text": "hello Alex"}, {}),
    ]
    redacted = redact(capture_of(frames, calls))
    text = "\n".join(f.text or "" for f in redacted.frames) + json.dumps(
        [c.request | c.result for c in redacted.calls]
    )
    for secret in ("Alex", "Steve", "my secret", "psst", "hello", "abc123ef", "10.0.0.7"):
        assert secret not in text, secret
    assert messages(redacted)[0] == "[chat 1]"
    assert redacted.calls[0].result == {"player": "Player2", "message": "[chat 2]"}
    assert redacted.calls[1].request["text"] == "[text 3]"  # the same text as its frames
    assert '\\"c\\":\\"[text 3]\\"' in (redacted.frames[-3].text or "")
    assert "tag Player2 list" in (redacted.frames[-1].text or "")
    assert redacted.header.bridge["token"] == "TOKEN" and redacted.header.redacted
    assert redacted.facts(1) == {"local_player": "Player1", "peer": "redacted", "path": "/TOKEN"}
    assert "2 player name(s)" in redacted.header.notes[0]


def test_a_stream_the_capture_does_not_hold_whole_is_left_out_and_noted() -> None:
    lines = chunks(Channel.BRIDGE, "a1b2c3d4e5f6", '{"ok":true,"result":{"name":"Steve"}}', [10])
    redacted = redact(capture_of([("in", event("MCBEWS_BRIDGE", lines[0]))]))
    assert redacted.frames == [] and "left out 1 frame" in redacted.header.notes[-1]


def test_the_original_capture_is_left_as_it_is() -> None:
    capture = capture_of([("in", event("Alex", "hi", "chat"))])
    redact(capture)
    assert "Alex" in (capture.frames[0].text or "") and not capture.header.redacted


async def test_a_redacted_recording_still_replays_with_the_same_results(tmp_path: Path) -> None:
    path = tmp_path / "redacted.jsonl"
    async with recorded_session(path, redact=True) as (mc, sim, _):
        await notebook_flow(mc, sim)
    report = await replay_capture(path)
    assert report.ok, report.describe()
    assert report.calls == 7  # three commands, three capability calls, one text


def test_the_names_list_answers_carry_are_replaced() -> None:
    body = {"currentPlayerCount": 2, "players": "Steve, Alexandra", "statusCode": 0,
            "statusMessage": "There are 2/10 players online:\nSteve, Alexandra"}  # fmt: skip
    answer = {"header": {"messagePurpose": "commandResponse", "requestId": "r1"}, "body": body}
    redacted = redact(capture_of([("out", command("list")), ("in", json.dumps(answer))]))
    text = redacted.frames[1].text or ""
    assert "Alexandra" not in text and "Steve" not in text and "Player2" in text


@pytest.mark.parametrize("language", ["zh_CN", "ja_JP", "de_DE", "ru_RU"])
def test_the_names_of_a_list_answer_in_any_language_are_replaced(language: str) -> None:
    # Only the message carries the names here: a capture from a game in another language.
    head = lang("commands.players.list", 2, 10, language=language)
    body = {"statusCode": 0, "statusMessage": f"{head}\n王小明, Alexandra"}
    answer = {"header": {"messagePurpose": "commandResponse", "requestId": "r1"}, "body": body}
    redacted = redact(capture_of([("out", command("list")), ("in", json.dumps(answer))]))
    text = json.loads(redacted.frames[1].text or "{}")["body"]["statusMessage"]
    assert text.splitlines() == [head, "Player2, Player3"]  # Player1: the header's Steve


@pytest.mark.parametrize("language", ["en_US", "zh_CN", "ko_KR", "tr_TR", "uk_UA"])
def test_the_games_own_senders_are_no_one_in_any_language(language: str) -> None:
    senders = [lang("commands.origin.external", language=language),
               lang("commands.origin.script", language=language)]  # fmt: skip
    frames = [("in", event(sender, "hello", "say")) for sender in senders]
    redacted = redact(capture_of([*frames, ("in", event("Alex", "hi", "chat"))]))
    said = [json.loads(f.text or "{}")["body"]["sender"] for f in redacted.frames]
    assert said[:2] == senders and said[2].startswith("Player")


def response(rid: str, message: str) -> str:
    header = {"messagePurpose": "commandResponse", "requestId": rid, "version": 1}
    return json.dumps({"header": header, "body": {"statusCode": 0, "statusMessage": message}})


def test_pulled_pages_are_joined_redacted_and_cut_again_even_into_more_pages() -> None:
    # Two full pages of an answer naming "Al" often: Player1 is longer, so the redacted
    # answer needs a third page, which gets a pull request and an answer of its own.
    names = [{"name": "Al", "note": "x" * 40}] * 31
    answer = json.dumps({"ok": True, "result": {"players": names}}, separators=(",", ":"))
    pages = split_pages(answer)
    assert len(pages) == 2 and len(answer) > 2000
    ask = "mcbews:ask " + json.dumps({"v": 2, "request_id": "a1", "capability": "x",
                                      "payload": {"target": "Al"}}).encode().hex()  # fmt: skip
    frames = [
        ("out", command(ask, "r1")),
        ("in", response("r1", format_page(Page("answer", "a1", 1, 2, pages[0])))),
        ("out", command("mcbews:pull a1 2", "r2")),
        ("in", response("r2", format_page(Page("answer", "a1", 2, 2, pages[1])))),
    ]
    redacted = redact(capture_of(frames))
    lines = [json.loads(f.text or "")["body"].get("commandLine") for f in redacted.frames]
    assert lines[4] == "mcbews:pull a1 3"  # the page added for the longer text
    replies = [decode_reply(json.loads(f.text or "")["body"]["statusMessage"])
               for f in redacted.frames if f.dir == "in"]  # fmt: skip
    assert [(p.index, p.total) for p in replies] == [(1, 3), (2, 3), (3, 3)]
    whole = json.loads("".join(p.content for p in replies))
    assert {p["name"] for p in whole["result"]["players"]} == {"Player2"}
    asked = bytes.fromhex(lines[0].split(" ")[1]).decode()
    assert '"target":"Player2"' in asked and "Al" not in asked


# A world where only the tags transport answers (custom-command messages and the bridge
# player's chat lost): answers and UI chat come back as page tags in `tag @s list` answers.
TAGS_ONLY_WORLD = {
    "pack": "beta",
    "beta_apis": True,
    "report_custom_command_messages": False,
    "report_simulated_chat": False,
}


def tag_texts(capture: Capture) -> list[str]:
    """Every whole message the capture's page tags carry, decoded."""
    held: dict[tuple[str, str], TagMessage] = {}
    for frame in capture.frames:
        body = (frame.json() or {}).get("body") if frame.dir == "in" else None
        status = body.get("statusMessage") if isinstance(body, dict) else None
        for page in read_tag_list(status).pages:
            key = (page.kind, page.message_id)
            held.setdefault(key, TagMessage(page.kind, page.message_id)).add(page)
    return [m.text() or "" for m in held.values() if m.complete]


async def test_answers_and_ui_chat_carried_in_page_tags_are_redacted_and_still_replay(
    tmp_path: Path,
) -> None:
    path = tmp_path / "tags.jsonl"
    async with recorded_session(
        path, redact=True, bridge={"transport": "tags"}, world=TAGS_ONLY_WORLD
    ) as (mc, sim, _):
        await notebook_flow(mc, sim)
        assert mc.connections[0].transport == "tags"
    capture = read_capture(path)
    texts = tag_texts(capture)
    assert texts, "the recording holds no page tags: the tags transport was not used"
    joined = "\n".join(texts)
    assert "Player1" in joined or "Player2" in joined
    for name in ("Steve", "Alex"):
        assert name not in joined
        assert all(name not in (f.text or "") for f in capture.frames), name
    assert "hello notebook" not in joined and "[chat " in joined, joined
    report = await replay_capture(path)
    assert report.ok, report.describe()


def tag_read(*tags: str, rid: str = "r1") -> str:
    listed = ", ".join(f"\u00a7a{t}\u00a7r" for t in tags)
    answer = {"statusCode": 0, "statusMessage": f"Steve has {len(tags)} tags: {listed}"}
    header = {"requestId": rid, "messagePurpose": "commandResponse", "version": 1}
    return json.dumps({"header": header, "body": answer})


def test_a_message_in_page_tags_that_grows_gets_its_extra_pages_beside_its_last() -> None:
    # One page filled to the byte with a short name: "Player2" needs a second page.
    answer = {"ok": True, "result": {"players": [{"name": "Al"}]}}
    padding = TAG_PAGE_BYTES - len(dumps_wire({**answer, "p": ""}))
    text = dumps_wire({**answer, "p": "x" * padding})
    (tag,) = encode_page_tags("answer", "a1", text)
    capture = capture_of([("out", command("tag @s list")), ("in", tag_read(tag, "mine"))])
    redacted = redact(capture)
    (read,) = [f for f in redacted.frames if f.dir == "in"]
    status = (read.json() or {})["body"]["statusMessage"]
    pages = read_tag_list(status).pages
    assert [(p.index, p.total) for p in pages] == [(1, 2), (2, 2)]
    assert "mine" in status and "Steve" not in status  # the words around the tags redacted
    whole = b"".join(p.payload for p in pages).decode()
    assert json.loads(whole)["result"]["players"] == [{"name": "Player2"}]  # Steve is 1


def test_page_tags_of_a_message_the_capture_does_not_hold_whole_are_left_out() -> None:
    text = dumps_wire({"ok": True, "result": {"name": "Alex", "p": "y" * 2 * TAG_PAGE_BYTES}})
    first, *_rest = encode_page_tags("answer", "a2", text)
    capture = capture_of([("out", command("tag @s list")), ("in", tag_read(first))])
    redacted = redact(capture)
    (read,) = [f for f in redacted.frames if f.dir == "in"]
    assert read_tag_list((read.json() or {})["body"]["statusMessage"]).pages == ()
    assert any("left out 1 page tag" in note for note in redacted.header.notes)

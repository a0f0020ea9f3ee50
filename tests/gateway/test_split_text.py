"""sansio.split_text (added for send_text): any text, parts within the addon's caps."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mcbews_repl.sansio import encode_text_response, split_text


@settings(max_examples=40, deadline=None)
@given(
    text=st.text(max_size=3000),
    max_frames=st.integers(1, 5),
    max_bytes=st.integers(6, 2000),
)
def test_parts_join_to_the_text_and_fit(text: str, max_frames: int, max_bytes: int) -> None:
    parts = split_text("Steve", text, max_frames=max_frames, max_message_bytes=max_bytes)
    assert "".join(parts) == text
    assert all(parts) or parts == [""]
    for part in parts:
        assert len(part.encode("utf-8", "surrogatepass")) <= max_bytes
        lines = encode_text_response("Steve", part, response_id="0" * 12, max_frames=None)
        assert len(lines) <= max_frames


def test_defaults_are_the_addon_caps() -> None:
    text = "é" * 70_000  # 140,000 UTF-8 bytes: over 64 KiB and over 128 frames
    parts = split_text("Steve", text)
    assert len(parts) > 1 and "".join(parts) == text
    for part in parts:
        assert len(part.encode()) <= 65536
        assert len(encode_text_response("Steve", part, response_id="a" * 12)) <= 128

"""Where the bridge listens: a bad port is refused before binding, a busy one says so."""

from __future__ import annotations

import socket

import pytest

from mcbews_repl import AddressInUse, McbewsError, serve


@pytest.mark.parametrize("port", [-1, 65536, 99999])
def test_a_port_out_of_range_is_refused_before_anything_binds(port: int) -> None:
    with pytest.raises(
        ValueError, match=rf"port must be 0\.\.65535 \(0 picks a free one\), not {port}"
    ):
        serve(port=port)


async def test_a_busy_port_says_what_to_do() -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        bridge = serve(port=port)
        with pytest.raises(AddressInUse) as busy:
            await bridge.start()
    error = busy.value
    assert isinstance(error, McbewsError) and isinstance(error, OSError)
    assert (error.host, error.port) == ("127.0.0.1", port)
    assert f"cannot listen on 127.0.0.1:{port}: the address is already in use" in str(error)
    assert "port=0 picks a free one" in str(error)
    async with serve(port=0) as fine:  # nothing was left half-started
        assert fine.port != port

"""Python `websockets` echo server: the hobby-server baseline of `make bench`.

Every message is sent back unchanged. Any path, no auth. Usage: python3 echo_server.py PORT
"""

import asyncio
import logging
import signal
import sys

from websockets.asyncio.server import serve
from websockets.exceptions import ConnectionClosed


async def echo(connection):
    try:
        async for message in connection:
            await connection.send(message)
    except ConnectionClosed:
        pass  # the load generator ends its run by dropping the connections


async def main(port: int) -> None:
    stop = asyncio.get_running_loop().create_future()
    for sig in (signal.SIGTERM, signal.SIGINT):
        asyncio.get_running_loop().add_signal_handler(sig, stop.set_result, None)
    async with serve(echo, "127.0.0.1", port, max_size=1 << 20, compression=None):
        await stop


if __name__ == "__main__":
    logging.getLogger("websockets").setLevel(logging.CRITICAL)
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 7682))

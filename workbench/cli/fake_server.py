"""`pdfworkbench fake-server`: a fake model provider on 127.0.0.1 for tests and CI dry runs."""

from __future__ import annotations

import argparse
import json

from workbench.cli.logs import note
from workbench.core.errors import UserError
from workbench.providers.fakeserver import FakeServer


def cmd_fake_server(args: argparse.Namespace) -> int:
    try:
        server = FakeServer(script=args.script, latency_s=args.latency_ms / 1000.0, faults=args.fault,
                            hang_s=args.hang_s, port=args.port, batch_polls=args.batch_polls,
                            batch_seconds=args.batch_seconds, batch_end=args.batch_end)
    except OSError as exc:
        raise UserError(f"cannot listen on 127.0.0.1:{args.port} ({exc.strerror}); try another --port") from None
    except (ValueError, json.JSONDecodeError) as exc:
        raise UserError(f"fake-server: {exc}") from None
    url = server.url
    note(f"fake provider on {url} (Ctrl-C to stop); point readers at it with:")
    note(f"  export OPENAI_BASE_URL={url}/v1 ANTHROPIC_BASE_URL={url} GOOGLE_GEMINI_BASE_URL={url} "
         f"OLLAMA_HOST={url} OPENAI_COMPATIBLE_BASE_URL={url}")
    note("  ask for faults in the model name, e.g. --reader openai:fake+429-retry-after+500x2")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
    return 0

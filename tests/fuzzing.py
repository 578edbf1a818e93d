"""The fuzzers' shared parts: byte-level faults, a seed, and a tally of how inputs ended."""

from __future__ import annotations

import os
import random

from workbench.core.errors import UserError

N = int(os.environ.get("PDFWORKBENCH_FUZZ_N", "500"))
SEED = 20261201


def mutate(data: bytes, rng: random.Random) -> bytes:
    """One to four byte-level faults: flip, overwrite with a JSON/PDF delimiter, insert, delete,
    duplicate a slice, or truncate."""
    buf = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        if not buf:
            break
        i = rng.randrange(len(buf))
        op = rng.randrange(6)
        if op == 0:
            buf[i] ^= 1 << rng.randrange(8)
        elif op == 1:
            buf[i] = rng.choice(b'{}[]",:0-9eE.\\/<>()%\x00\xff\n')
        elif op == 2:
            buf[i:i] = rng.choice([b"[", b"{", b"null", b"1e400", b"-", b"\xff\xfe", b"../", b"obj"])
        elif op == 3:
            del buf[i:i + rng.randint(1, 64)]
        elif op == 4:
            j = min(len(buf), i + rng.randint(1, 256))
            buf[i:i] = buf[i:j]
        else:
            del buf[i:]
    return bytes(buf)


class Tally:
    """Counts inputs that worked, that were refused with a UserError (one line), and that a PDF
    library refused deeper in (the CLI's safety net prints those as one line too)."""

    def __init__(self) -> None:
        self.tried = self.worked = self.refused = self.library = 0

    def __call__(self, fn) -> None:
        from workbench.pdf.document import is_pdf_error

        self.tried += 1
        try:
            fn()
        except UserError:
            self.refused += 1
        except Exception as exc:
            if not is_pdf_error(exc):
                raise
            self.library += 1
        else:
            self.worked += 1


def report(kind: str, t: Tally) -> None:
    # Shown with -s; the note quotes these figures.
    print(f"\nfuzz {kind}: {t.tried} inputs, {t.worked} worked, {t.refused} refused in one line, "
          f"{t.library} refused by a PDF library (one line through the CLI), 0 escaped")



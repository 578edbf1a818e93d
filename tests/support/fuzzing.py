"""The fuzzers' shared parts: byte-level faults, a seed, and a tally of how inputs ended."""

from __future__ import annotations

import os
import random
from pathlib import Path

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


def plant_file(path: Path, content: object, tmp: Path) -> None:
    """Put a hostile thing at `path`: a FIFO, a folder, a sparse giant, a link, or these bytes."""
    if content == "fifo":
        os.mkfifo(path)
    elif content == "dir":
        path.mkdir()
    elif content == "sparse":
        with open(path, "wb") as f:
            f.truncate(100 * 2**20)   # a 100 MB file of zeros, without writing them
    elif content == "link-zero":
        path.symlink_to("/dev/zero")
    elif content == "dangling":
        path.symlink_to(tmp / "nowhere.json")
    elif isinstance(content, bytes):
        path.write_bytes(content)
    else:
        raise AssertionError(content)


def file_state(path: Path) -> object:
    """What the user has at `path`, to see nothing wrote over it."""
    if path.is_symlink():
        return ("link", os.readlink(path))
    if path.is_fifo():
        return ("fifo",)
    if path.is_dir():
        return ("dir", sorted(os.listdir(path)))
    st = path.stat()
    if st.st_size > 2**24:
        return ("big", st.st_size, st.st_mtime_ns)
    return ("bytes", path.read_bytes())

"""Revisions (workbench/pdf/revisions.py): each incremental update of a file pymupdf updates, and
what it changed on the pages: text runs gone and new, images stamped on; nothing for a file
written once."""

from __future__ import annotations

import pymupdf

from workbench.pdf.revisions import revisions


def updated(tmp_path, *updates) -> bytes:
    """Two pages written by pymupdf, then each of `updates(doc)` saved as an incremental update."""
    path = tmp_path / "updated.pdf"
    doc = pymupdf.open()
    for text in ("Total due: $100.00", "Page two stays as it is"):
        doc.new_page().insert_text((72, 72), text, fontsize=12)
    doc.save(path)
    doc.close()
    for update in updates:
        doc = pymupdf.open(path)
        update(doc)
        doc.saveIncr()
        doc.close()
    return path.read_bytes()


def new_total(doc) -> None:
    page = doc[0]
    page.add_redact_annot(page.search_for("Total due: $100.00")[0])
    page.apply_redactions()
    page.insert_text((72, 72), "Total due: $900.00", fontsize=12)


def stamp(doc) -> None:
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 8, 8), False)
    pix.clear_with(0)
    doc[1].insert_image(pymupdf.Rect(72, 100, 144, 172), pixmap=pix)


def test_a_file_written_once_has_no_revisions(tmp_path):
    assert revisions(updated(tmp_path)) == []


def test_an_update_that_replaces_the_total_says_what_left_and_what_came(tmp_path):
    data = updated(tmp_path, new_total)
    first, second = revisions(data)
    assert first.to_json() == {"number": 1, "end": first.end, "objects": first.objects,
                               "pages_changed": [], "removed": [], "added": []}
    assert data[:first.end].rstrip().endswith(b"%%EOF") and second.end == len(data)
    assert second.to_json()["pages_changed"] == [1] and second.pages_changed == [0]
    assert (second.removed, second.added) == (["Total due: $100.00"], ["Total due: $900.00"])
    assert 0 < second.objects < first.objects


def test_each_update_is_a_revision_and_a_stamped_image_is_a_change(tmp_path):
    revs = revisions(updated(tmp_path, new_total, stamp))
    assert [r.number for r in revs] == [1, 2, 3]
    assert (revs[2].pages_changed, revs[2].removed, revs[2].added) == ([1], [], ["[1 image]"])


def test_a_second_eof_with_nothing_between_is_no_revision(tmp_path):
    """Some writers end a file with two %%EOF: that made a file written once two revisions (and
    Inspect said the viewers show revision 2)."""
    assert revisions(updated(tmp_path) + b"%%EOF\n") == []
    data = updated(tmp_path, new_total)
    again = revisions(data + b"\n%%EOF\n")
    assert [(r.number, r.removed, r.added) for r in again] == [(r.number, r.removed, r.added) for r in revisions(data)]

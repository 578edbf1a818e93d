"""A two-page bank statement drawn the way other software draws documents (reportlab platypus
flowables: paragraphs, tables that split across pages), not with our kit's canvas calls. It is
the shipped stand-in for "your own document": the adopted sample suite is made from it.

    statement_pdf() -> bytes     the same bytes every time (reportlab invariant mode)
"""

from __future__ import annotations

import io
import random

QUESTION = "What is the new balance on this statement?"


def _transactions() -> tuple[float, list[tuple[str, str, float]], float]:
    rng = random.Random(20250331)
    shops = ("Harbour Grocers", "City Transit", "Blue Door Cafe", "Meridian Fuel", "Parkside Pharmacy",
             "Online Books Ltd", "Riverside Utilities", "Corner Hardware", "Streamline Media")
    rows = []
    for day in range(1, 29, 2):
        if day in (7, 19):
            rows.append((f"2025-03-{day:02d}", "Salary - Lumen Analytics", 1850.00))
        else:
            rows.append((f"2025-03-{day:02d}", f"Card purchase - {rng.choice(shops)}",
                         -round(rng.uniform(4, 140), 2)))
    rows.append(("2025-03-31", "Interest and fees", -4.50))
    opening = 2310.40
    return opening, rows, round(opening + sum(a for _, _, a in rows), 2)


NEW_BALANCE = f"${_transactions()[2]:,.2f}"  # the right answer, as page 2 prints it


def statement_pdf() -> bytes:
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
    from reportlab.lib.units import mm
    from reportlab.platypus import (
        PageBreak,
        Paragraph,
        SimpleDocTemplate,
        Spacer,
        Table,
        TableStyle,
    )

    opening, rows, closing = _transactions()
    styles = getSampleStyleSheet()
    small = ParagraphStyle("small", parent=styles["Normal"], fontSize=8, leading=10, textColor=colors.grey)
    buf = io.BytesIO()
    doc = SimpleDocTemplate(buf, pagesize=A4, invariant=True, title="Statement March 2025",
                            author="Northwind Credit Union", leftMargin=20 * mm, rightMargin=20 * mm,
                            topMargin=18 * mm, bottomMargin=18 * mm)

    def footer(canvas, document) -> None:
        canvas.saveState()
        canvas.setFont("Helvetica", 8)
        canvas.drawString(20 * mm, 10 * mm, "Northwind Credit Union - 18 Quay Street, Portland, OR 97205")
        canvas.drawRightString(A4[0] - 20 * mm, 10 * mm, f"Page {document.page} of 2")
        canvas.restoreState()

    money = "{:,.2f}".format
    story = [
        Paragraph("Northwind Credit Union", styles["Title"]),
        Paragraph("Account statement - March 2025", styles["Heading2"]),
        Paragraph("Jordan Ellis<br/>42 Alder Grove<br/>Portland, OR 97211", styles["Normal"]),
        Spacer(1, 6 * mm),
        Table([["Account number", "4402-1187-33"], ["Statement period", "1 March 2025 - 31 March 2025"],
               ["Opening balance", money(opening)]],
              colWidths=(45 * mm, 70 * mm),
              style=TableStyle([("FONT", (0, 0), (0, -1), "Helvetica-Bold"),
                                ("BOX", (0, 0), (-1, -1), 0.5, colors.grey),
                                ("BACKGROUND", (0, 0), (-1, -1), colors.HexColor("#f3f5f8"))])),
        Spacer(1, 6 * mm),
        Paragraph("Transactions", styles["Heading3"]),
    ]
    balance = opening
    table = [["Date", "Description", "Amount", "Balance"]]
    for date, text, amount in rows:
        balance = round(balance + amount, 2)
        table.append([date, text, money(amount), money(balance)])
    story.append(Table(table, colWidths=(28 * mm, 80 * mm, 28 * mm, 30 * mm), repeatRows=1,
                       style=TableStyle([
                           ("FONT", (0, 0), (-1, 0), "Helvetica-Bold"),
                           ("ALIGN", (2, 0), (-1, -1), "RIGHT"),
                           ("LINEBELOW", (0, 0), (-1, 0), 0.8, colors.black),
                           ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor("#f6f6f6")]),
                           ("FONTSIZE", (0, 0), (-1, -1), 9)])))
    story += [
        PageBreak(),
        Paragraph("Summary", styles["Heading2"]),
        Table([["Opening balance", money(opening)],
               ["Money in", money(sum(a for _, _, a in rows if a > 0))],
               ["Money out", money(-sum(a for _, _, a in rows if a < 0))],
               ["New balance", NEW_BALANCE]],
              colWidths=(60 * mm, 35 * mm),
              style=TableStyle([("ALIGN", (1, 0), (1, -1), "RIGHT"),
                                ("LINEABOVE", (0, -1), (-1, -1), 0.8, colors.black),
                                ("FONT", (0, -1), (-1, -1), "Helvetica-Bold", 11)])),
        Spacer(1, 10 * mm),
        Paragraph("Your new balance is carried forward to your April statement. If any entry looks wrong, "
                  "call us within 60 days of the statement date.", styles["Normal"]),
        Spacer(1, 4 * mm),
        Paragraph("Northwind Credit Union is a member-owned cooperative. Deposits are insured up to the "
                  "legal limit. Interest rates are variable and published at every branch.", small),
    ]
    assert abs(balance - closing) < 0.005
    doc.build(story, onFirstPage=footer, onLaterPages=footer)
    return buf.getvalue()

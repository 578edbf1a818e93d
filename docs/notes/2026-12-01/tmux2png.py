"""Turn `tmux capture-pane -e -p` output into a PNG: each cell is 8x16 px; half-block cells
(upper/lower half) are drawn as two colour halves, other characters as their fg/bg block (text
drawn with PIL's default font). Enough to see what a person sees of the half-block page."""
import re
import sys

from PIL import Image, ImageDraw, ImageFont

CW, CH = 8, 16
SGR = re.compile(r"\x1b\[([0-9;:]*)m")


def xterm256(n):
    base = [(0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205),
            (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255),
            (255, 0, 255), (0, 255, 255), (255, 255, 255)]
    if n < 16:
        return base[n]
    if n < 232:
        n -= 16
        steps = [0, 95, 135, 175, 215, 255]
        return steps[n // 36], steps[(n // 6) % 6], steps[n % 6]
    v = 8 + (n - 232) * 10
    return v, v, v


def main(src, dst):
    lines = open(src, encoding="utf-8", errors="replace").read().split("\n")
    rows = len(lines)
    cols = 0
    cells = []
    for line in lines:
        fg, bg = (220, 220, 220), (0, 0, 0)
        row = []
        pos = 0
        for m in SGR.finditer(line + "\x1b[m"):
            for ch in line[pos:m.start()]:
                row.append((ch, fg, bg))
            pos = m.end()
            parts = [p for p in m.group(1).replace(":", ";").split(";")]
            parts = [int(p) if p else 0 for p in parts] or [0]
            i = 0
            while i < len(parts):
                p = parts[i]
                if p == 0:
                    fg, bg = (220, 220, 220), (0, 0, 0)
                elif p in (38, 48) and i + 1 < len(parts):
                    if parts[i + 1] == 2:
                        c = tuple(parts[i + 2:i + 5])
                        i += 4
                    else:
                        c = xterm256(parts[i + 2])
                        i += 2
                    if p == 38:
                        fg = c
                    else:
                        bg = c
                elif 30 <= p <= 37:
                    fg = xterm256(p - 30)
                elif 40 <= p <= 47:
                    bg = xterm256(p - 40)
                elif 90 <= p <= 97:
                    fg = xterm256(p - 90 + 8)
                elif 100 <= p <= 107:
                    bg = xterm256(p - 100 + 8)
                elif p == 39:
                    fg = (220, 220, 220)
                elif p == 49:
                    bg = (0, 0, 0)
                i += 1
        cells.append(row)
        cols = max(cols, len(row))
    img = Image.new("RGB", (cols * CW, rows * CH))
    draw = ImageDraw.Draw(img)
    font = ImageFont.load_default()
    for y, row in enumerate(cells):
        for x, (ch, fg, bg) in enumerate(row):
            box = (x * CW, y * CH, x * CW + CW - 1, y * CH + CH - 1)
            if ch == "▀":
                draw.rectangle((box[0], box[1], box[2], box[1] + CH // 2 - 1), fill=fg)
                draw.rectangle((box[0], box[1] + CH // 2, box[2], box[3]), fill=bg)
            elif ch == "▄":
                draw.rectangle((box[0], box[1], box[2], box[1] + CH // 2 - 1), fill=bg)
                draw.rectangle((box[0], box[1] + CH // 2, box[2], box[3]), fill=fg)
            elif ch == "█":
                draw.rectangle(box, fill=fg)
            else:
                draw.rectangle(box, fill=bg)
                if ch.strip():
                    draw.text((box[0], box[1] + 2), ch, fill=fg, font=font)
    img.save(dst)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])

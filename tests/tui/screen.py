"""What the terminal shows, as plain text lines: for asserting on the screen a user sees."""


def screen_text(app) -> str:
    strips = app.screen._compositor.render_strips()
    return "\n".join(strip.text for strip in strips)

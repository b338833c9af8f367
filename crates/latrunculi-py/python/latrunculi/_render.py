"""Rendering a position for the environments (``latrunculi.pettingzoo``, ``latrunculi.gymnasium``)."""


def render_position(position, mode):
    """``"svg"``: the SVG text; ``"ansi"``: the diagram text; ``"human"``: prints the
    diagram and returns ``None``."""
    if mode == "svg":
        return position.svg()
    text = position.diagram()
    if mode == "human":
        print(text)
        return None
    return text

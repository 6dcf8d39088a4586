"""Static previews of the book's interactive plotly figures.

:class:`WithPreview` displays a plotly figure exactly as
:class:`aukbook.plotting.PlotlyFigure` does (plotly JSON for Jupyter, an HTML
div for the book) and adds a PNG of the figure's *starting state*, drawn with
matplotlib from the traces that are visible before any slider is moved.

The HTML book still shows the interactive figure (its renderer prefers
``text/html``); the PNG serves notebook viewers that run no JavaScript, and it
gives every captioned figure a real image.

Examples
--------
>>> import plotly.graph_objects as go
>>> from aukbook.preview import WithPreview
>>> fig = go.Figure(go.Scatter(x=[0, 1], y=[0, 1], mode="lines"))
>>> bundle = WithPreview(fig, "demo")._repr_mimebundle_()
>>> sorted(bundle)
['application/vnd.plotly.v1+json', 'image/png', 'text/html', 'text/plain']
"""

import base64
import io

from .plotting import PlotlyFigure

__all__ = ["WithPreview", "plotly_to_matplotlib"]


def _axis_key(ref, letter):
    """'x2' -> 'xaxis2', 'x' -> 'xaxis' (also for 'y')."""
    ref = ref or letter
    return f"{letter}axis{ref[1:]}"


def plotly_to_matplotlib(fig, *, width=9.0, height=4.0):
    """Draw the visible traces, shapes and axis settings of a plotly figure.

    Handles what the book's explorers use: line, marker and text scatter
    traces on a row of subplots, line shapes, axis titles and ranges,
    subplot titles and the figure title.  Returns a
    :class:`matplotlib.figure.Figure` (not registered with pyplot).
    """
    from matplotlib.figure import Figure

    pairs = []
    for trace in fig.data:
        pair = (trace.xaxis or "x", trace.yaxis or "y")
        if pair not in pairs:
            pairs.append(pair)
    pairs.sort(key=lambda xy: (len(xy[0]), xy[0]))
    mfig = Figure(figsize=(width, height), layout="constrained")
    axes = mfig.subplots(1, len(pairs), squeeze=False)[0]
    ax_of = dict(zip(pairs, axes))
    for trace in fig.data:
        if trace.visible is False or trace.x is None:
            continue
        ax = ax_of[(trace.xaxis or "x", trace.yaxis or "y")]
        mode = trace.mode or "lines+markers"
        if "lines" in mode:
            ax.plot(trace.x, trace.y, color=trace.line.color,
                    lw=0.8 * (trace.line.width or 2),
                    ls="--" if trace.line.dash else "-")
        if "markers" in mode:
            ax.plot(trace.x, trace.y, "o", color=trace.marker.color,
                    ms=0.7 * (trace.marker.size or 6))
        if "text" in mode and trace.text is not None:
            texts = [trace.text] if isinstance(trace.text, str) else trace.text
            for x, y, s in zip(trace.x, trace.y, texts):
                ax.text(x, y, str(s).replace("<br>", "\n"), ha="right", va="top",
                        fontsize=8)
    for shape in fig.layout.shapes or ():
        if shape.type != "line":
            continue
        ax = ax_of.get((shape.xref or "x", shape.yref or "y"))
        if ax is not None:
            ax.plot([shape.x0, shape.x1], [shape.y0, shape.y1], color="grey",
                    ls="--" if shape.line.dash else "-", lw=1)
    titles = [a.text for a in (fig.layout.annotations or ())]
    for k, ((xref, yref), ax) in enumerate(zip(pairs, axes)):
        xaxis = fig.layout[_axis_key(xref, "x")]
        yaxis = fig.layout[_axis_key(yref, "y")]
        if xaxis.range is not None:
            ax.set_xlim(*xaxis.range)
        if yaxis.range is not None:
            ax.set_ylim(*yaxis.range)
        ax.set_xlabel(xaxis.title.text or "")
        ax.set_ylabel(yaxis.title.text or "")
        if len(titles) == len(axes):
            ax.set_title(titles[k], fontsize=10)
    if fig.layout.title.text:
        mfig.suptitle(fig.layout.title.text.replace("<br>", "\n"), fontsize=10)
    return mfig


class WithPreview:
    """A :class:`~aukbook.plotting.PlotlyFigure` plus a PNG of its starting state.

    Parameters
    ----------
    fig : plotly.graph_objects.Figure
    div_id : str
        Fixed id of the HTML element (see PlotlyFigure).
    dpi : int, default=80
        Resolution of the preview.
    config : dict, default=None
        Display options for the interactive figure (see PlotlyFigure).
    """

    def __init__(self, fig, div_id, *, dpi=80, config=None):
        self.fig = fig
        self.inner = PlotlyFigure(fig, div_id, config=config)
        self.dpi = dpi

    def _repr_mimebundle_(self, include=None, exclude=None):
        bundle = self.inner._repr_mimebundle_(include, exclude)
        buf = io.BytesIO()
        plotly_to_matplotlib(self.fig).savefig(buf, format="png", dpi=self.dpi)
        bundle["image/png"] = base64.b64encode(buf.getvalue()).decode("ascii")
        return bundle

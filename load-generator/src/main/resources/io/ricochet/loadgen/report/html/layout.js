// Room for uPlot's tick labels, measured rather than guessed: axis sizes and edge padding from the labels' widths, and
// a check, for the browser test, that every label drawn lies inside its axis and the canvas.
var RicochetLayout = (function () {
  "use strict";
  var AUTO_PAD = 25;   // uPlot's own edge padding where no axis sits (half its default y axis size)

  // A canvas of its own: uPlot caches the font it last set on its context, so measuring there would change its text.
  var measure = document.createElement("canvas").getContext("2d");

  function textWidth(u, axis, text) {
    measure.font = axis.font[0];
    return measure.measureText(String(text)).width / uPlot.pxRatio;
  }
  function widest(u, axis, values) {
    return (values || []).reduce(function (w, v) { return v === null ? w : Math.max(w, textWidth(u, axis, v)); }, 0);
  }
  function tickRoom(axis) {
    return (axis.ticks.show ? axis.ticks.size : 0) + axis.gap;
  }

  // A y axis's size: its ticks, gap and widest label, so the label never runs into the axis title.
  function axisSize(u, values, i) {
    var axis = u.axes[i];
    return Math.max(40, Math.ceil(tickRoom(axis) + widest(u, axis, values) + 6));
  }

  // Right padding: half the last x label, so a label centred on the plot's edge is not cut by the canvas.
  function padRight(u, side, sides) {
    if (sides[1]) return 0;
    var values = (u.axes[0]._values || []).filter(function (v) { return v !== null; });
    return values.length ? Math.max(AUTO_PAD, Math.ceil(widest(u, u.axes[0], values.slice(-1)) / 2 + 4)) : AUTO_PAD;
  }

  // Each shown axis, its ticks as drawn, and the labels that leave its band or the canvas.
  function check(u) {
    var left = u.bbox.left / uPlot.pxRatio, top = u.bbox.top / uPlot.pxRatio;
    var right = left + u.bbox.width / uPlot.pxRatio;
    return u.axes.filter(function (a) { return a.show && a._show; }).map(function (axis) {
      var scale = u.scales[axis.scale];
      var clipped = [];
      var half = axis.font[2] / 2;
      (axis._values || []).forEach(function (text, j) {
        if (text === null) return;
        var w = textWidth(u, axis, text);
        var pos = u.valToPos(axis._splits[j], axis.scale);
        var box;
        if (axis.side === 2) box = [left + pos - w / 2, left + pos + w / 2, 0, u.height];
        else if (axis.side === 3) box = [left - tickRoom(axis) - w, left, top + pos - half, top + pos + half];
        else box = [right, right + tickRoom(axis) + w, top + pos - half, top + pos + half];
        var band = axis.side === 3 ? left - axis._size : axis.side === 1 ? right + axis._size : null;
        if (box[0] < 0 || box[1] > u.width || box[2] < 0 || box[3] > u.height
            || (axis.side === 3 && box[0] < band) || (axis.side === 1 && box[1] > band)) clipped.push(String(text));
      });
      return { scale: axis.scale, side: axis.side, distr: scale.distr, min: scale.min, max: scale.max,
        splits: axis._splits, ticks: (axis._values || []).map(function (v) { return v === null ? null : String(v); }),
        clipped: clipped };
    });
  }

  return { axisSize: axisSize, padRight: padRight, check: check };
})();

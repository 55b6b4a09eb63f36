#!/usr/bin/env python3
"""Draws docs/acceleration.svg: pointer gain against finger speed for `adaptive` and `flat`.

The numbers are AccelerationCurve's defaults (Sources/GestureControl/Settings/AccelerationCurve.swift);
run this again after changing them: python3 scripts/plot_acceleration.py > docs/acceleration.svg
"""
THRESHOLD, MIN_GAIN, SLOPE, MAX_GAIN = 0.1, 0.8, 1.6, 3.5


def gain(v):
    return min(max(MIN_GAIN + SLOPE * max(0.0, v - THRESHOLD), MIN_GAIN), MAX_GAIN)


W, H, L, B, T, R = 640, 360, 60, 40, 20, 20
VMAX, GMAX = 2.5, 4.0


def px(v, g):
    return L + v / VMAX * (W - L - R), H - B - g / GMAX * (H - B - T)


points = " ".join("%.1f,%.1f" % px(i / 200 * VMAX, gain(i / 200 * VMAX)) for i in range(201))
flat = "%.1f,%.1f %.1f,%.1f" % (*px(0, 1), *px(VMAX, 1))
grid = []
for i in range(6):
    v = i * 0.5
    x, _ = px(v, 0)
    grid.append(f'<line x1="{x:.1f}" y1="{T}" x2="{x:.1f}" y2="{H - B}" stroke="#ddd"/>'
                f'<text x="{x:.1f}" y="{H - B + 16}" text-anchor="middle">{v:g}</text>')
for g in range(5):
    _, y = px(0, g)
    grid.append(f'<line x1="{L}" y1="{y:.1f}" x2="{W - R}" y2="{y:.1f}" stroke="#ddd"/>'
                f'<text x="{L - 8}" y="{y + 4:.1f}" text-anchor="end">{g}</text>')
print(f'''<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">
<rect width="100%" height="100%" fill="white"/>
{''.join(grid)}
<polyline points="{flat}" fill="none" stroke="#888" stroke-width="2" stroke-dasharray="6 4"/>
<polyline points="{points}" fill="none" stroke="#0a6" stroke-width="3"/>
<text x="{(W + L) / 2}" y="{H - 6}" text-anchor="middle">finger speed (CSS px per ms; 1 px/ms = 1000 px/s)</text>
<text x="14" y="{(H - B) / 2}" transform="rotate(-90 14 {(H - B) / 2})" text-anchor="middle">gain (screen px per CSS px, × --speed)</text>
<text x="{W - R - 8}" y="{px(0, MAX_GAIN)[1] - 8:.1f}" text-anchor="end" fill="#0a6">adaptive</text>
<text x="{W - R - 8}" y="{px(0, 1)[1] - 8:.1f}" text-anchor="end" fill="#888">flat</text>
</svg>''')

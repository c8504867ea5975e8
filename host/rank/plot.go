package rank

import (
	"fmt"
	"image/color"
	"os"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// Plot draws, one panel per task, each variant's score against its
// measured speedup over the task's slowest variant (primary configuration,
// log scale), titled with the task's ρ, and writes a PNG to path. A good
// ranker's points rise from left to right in every panel. A task whose
// timed variants do not differ in time has nothing to draw (a log axis
// over one value cannot be drawn) and gets no panel.
func Plot(tasks []Task, score func(Variant) float64, title, path string) error {
	tasks = spread(tasks)
	if len(tasks) == 0 {
		return fmt.Errorf("rank: plot: no task has two timed variants of different times on its primary configuration: nothing to draw")
	}
	const cols = 3
	rows := (len(tasks) + cols - 1) / cols
	tiles := make([][]*plot.Plot, rows)
	for r := range tiles {
		tiles[r] = make([]*plot.Plot, cols)
	}
	results := Evaluate(tasks, score, PrimaryOnly)
	for i, t := range tasks {
		p := plot.New()
		var pts plotter.XYs
		idx := t.timed(t.Primary)
		if len(idx) == 0 {
			continue
		}
		slowest := t.Variants[idx[len(idx)-1]].Times[t.Primary]
		for _, j := range idx {
			pts = append(pts, plotter.XY{X: score(t.Variants[j]), Y: slowest / t.Variants[j].Times[t.Primary]})
		}
		s, err := plotter.NewScatter(pts)
		if err != nil {
			return err
		}
		s.GlyphStyle.Color = color.RGBA{R: 40, G: 90, B: 180, A: 255}
		s.GlyphStyle.Shape = draw.CircleGlyph{}
		s.GlyphStyle.Radius = vg.Points(3)
		p.Add(s, plotter.NewGrid())
		p.Title.Text = t.Name
		for _, r := range results {
			if r.Task == t.Name {
				p.Title.Text = fmt.Sprintf("%s  ρ=%.2f", t.Name, r.Rho)
			}
		}
		p.Title.TextStyle.Font.Size = vg.Points(9)
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
		p.X.Label.Text = "score"
		p.Y.Label.Text = "speedup ×"
		for _, a := range []*plot.Axis{&p.X, &p.Y} {
			a.Label.TextStyle.Font.Size = vg.Points(8)
			a.Tick.Label.Font.Size = vg.Points(7)
		}
		tiles[i/cols][i%cols] = p
	}
	w, h := vg.Length(cols)*2.4*vg.Inch, vg.Length(rows)*2.1*vg.Inch+0.3*vg.Inch
	img := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(80))
	dc := draw.New(img)
	top := draw.Crop(dc, 0, 0, 0, -0.3*vg.Inch)
	header := draw.Crop(dc, 0, 0, h-0.3*vg.Inch, 0)
	header.FillText(draw.TextStyle{Color: color.Black, Font: font.From(plot.DefaultFont, vg.Points(10)), XAlign: draw.XCenter,
		YAlign: draw.YCenter, Handler: plot.DefaultTextHandler}, vg.Point{X: w / 2, Y: h - 0.15*vg.Inch}, title)
	canvases := plot.Align(tiles, draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Points(6), PadY: vg.Points(6), PadTop: vg.Points(4)}, top)
	for r := range tiles {
		for c := range tiles[r] {
			if tiles[r][c] != nil {
				tiles[r][c].Draw(canvases[r][c])
			}
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("rank: plot: %w", err)
	}
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(f); err != nil {
		f.Close()
		return fmt.Errorf("rank: plot: %w", err)
	}
	return f.Close()
}

// spread keeps the tasks with at least two different times among their
// variants on the primary configuration.
func spread(tasks []Task) []Task {
	var out []Task
	for _, t := range tasks {
		idx := t.timed(t.Primary)
		if len(idx) >= 2 && t.Variants[idx[0]].Times[t.Primary] < t.Variants[idx[len(idx)-1]].Times[t.Primary] {
			out = append(out, t)
		}
	}
	return out
}

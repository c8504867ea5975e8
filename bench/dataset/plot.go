package dataset

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Plot draws every accepted variant's speedup over the C reference (log
// scale), one column per task, with the best variant of each task marked,
// and saves it to path (.png, .svg or .pdf by extension).
func Plot(ts []*Task, path string) error {
	p := plot.New()
	p.Title.Text = "c2cuda: speedup of each variant over the C reference (primary configuration)"
	p.Y.Label.Text = "speedup (×, log scale)"
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	var all, best plotter.XYs
	var names []string
	for i, t := range ts {
		names = append(names, t.Name)
		for j, v := range t.Variants {
			if !v.Accepted || v.Speedup <= 0 {
				continue
			}
			pt := plotter.XY{X: float64(i), Y: v.Speedup}
			if j == 0 {
				best = append(best, pt)
			} else {
				all = append(all, pt)
			}
		}
	}
	if len(all)+len(best) == 0 {
		return fmt.Errorf("dataset: plot: no accepted variant with a speedup to plot")
	}
	if len(all) > 0 {
		s, err := plotter.NewScatter(all)
		if err != nil {
			return err
		}
		s.GlyphStyle.Color = color.RGBA{R: 90, G: 120, B: 200, A: 255}
		s.GlyphStyle.Radius = vg.Points(2.5)
		p.Add(s)
		p.Legend.Add("variant", s)
	}
	if len(best) > 0 {
		s, err := plotter.NewScatter(best)
		if err != nil {
			return err
		}
		s.GlyphStyle.Color = color.RGBA{R: 220, G: 60, B: 40, A: 255}
		s.GlyphStyle.Shape = draw.PyramidGlyph{}
		s.GlyphStyle.Radius = vg.Points(3.5)
		p.Add(s)
		p.Legend.Add("best variant", s)
	}
	one, err := plotter.NewLine(plotter.XYs{{X: -0.5, Y: 1}, {X: float64(len(ts)) - 0.5, Y: 1}})
	if err == nil {
		one.LineStyle.Dashes = []vg.Length{vg.Points(3), vg.Points(3)}
		p.Add(one)
	}
	p.Add(plotter.NewGrid())
	p.NominalX(names...)
	p.X.Tick.Label.Rotation = math.Pi / 2.5
	p.X.Tick.Label.XAlign = draw.XRight
	p.X.Tick.Label.YAlign = draw.YCenter
	p.Legend.Top = true
	w := vg.Length(max(8, 0.28*float64(len(ts)))) * vg.Inch
	return p.Save(w, 5*vg.Inch, path)
}

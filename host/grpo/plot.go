package grpo

import (
	"fmt"
	"image/color"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

var palette = []color.Color{
	color.RGBA{R: 31, G: 119, B: 180, A: 255},
	color.RGBA{R: 214, G: 39, B: 40, A: 255},
	color.RGBA{R: 44, G: 160, B: 44, A: 255},
	color.RGBA{R: 148, G: 103, B: 189, A: 255},
	color.RGBA{R: 255, G: 127, B: 14, A: 255},
}

type series struct {
	name string
	y    func(*Metrics) float64
}

func linePlot(ms []Metrics, title, ylabel string, ss []series, path string) error {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "step"
	p.Y.Label.Text = ylabel
	p.Add(plotter.NewGrid())
	for i, s := range ss {
		pts := make(plotter.XYs, len(ms))
		for k := range ms {
			pts[k] = plotter.XY{X: float64(ms[k].Step), Y: s.y(&ms[k])}
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			return fmt.Errorf("grpo: plot %s: %w", s.name, err)
		}
		l.LineStyle.Color = palette[i%len(palette)]
		l.LineStyle.Width = vg.Points(1.5)
		p.Add(l)
		p.Legend.Add(s.name, l)
	}
	p.Legend.Top = true
	p.Legend.Left = true
	return p.Save(7*vg.Inch, 4*vg.Inch, path)
}

// PlotCurves writes reward.png (total reward and its parts per step) and
// rates.png (compile and correct rates, and the correct rate of the first
// and last turn) into dir. With no metrics it writes nothing.
func PlotCurves(ms []Metrics, dir string) error {
	if len(ms) == 0 {
		return nil
	}
	mode := ms[len(ms)-1].Mode
	err := linePlot(ms, fmt.Sprintf("reward per step (mode %s)", mode), "mean over candidates", []series{
		{"reward", func(m *Metrics) float64 { return m.RewardMean }},
		{"Rver", func(m *Metrics) float64 { return m.VerMean }},
		{"Rstr term used", func(m *Metrics) float64 { return m.StrUsedMean }},
	}, filepath.Join(dir, "reward.png"))
	if err != nil {
		return err
	}
	rates := []series{
		{"compiles", func(m *Metrics) float64 { return m.CompileRate }},
		{"correct", func(m *Metrics) float64 { return m.CorrectRate }},
	}
	if n := len(ms[0].TurnCorrect); n > 1 {
		rates = append(rates,
			series{"correct, first turn", func(m *Metrics) float64 { return at(m.TurnCorrect, 0) }},
			series{fmt.Sprintf("correct, turn %d", n), func(m *Metrics) float64 { return at(m.TurnCorrect, n-1) }})
	}
	return linePlot(ms, "compile and correct rates per step", "fraction of candidates", rates, filepath.Join(dir, "rates.png"))
}

func at(x []float64, i int) float64 {
	if i < len(x) {
		return x[i]
	}
	return 0
}

package rank

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/floats"
)

// Net is a fully connected network: tanh hidden layers and one linear
// output. With no hidden layer it is the linear model s = w·x + b.
type Net struct {
	// Sizes are the layer widths: inputs, hidden..., 1.
	Sizes []int `json:"sizes"`
	// Params holds each layer's weights (out × in, row-major) and then its
	// biases, layer after layer.
	Params []float64 `json:"params"`
}

func newNet(sizes []int, rng *rand.Rand) *Net {
	n := &Net{Sizes: sizes}
	for l := 0; l+1 < len(sizes); l++ {
		in, out := sizes[l], sizes[l+1]
		// Glorot-uniform weights, zero biases.
		lim := math.Sqrt(6 / float64(in+out))
		for i := 0; i < in*out; i++ {
			n.Params = append(n.Params, (2*rng.Float64()-1)*lim)
		}
		n.Params = append(n.Params, make([]float64, out)...)
	}
	return n
}

// work holds the activations of one forward pass, for the backward pass.
type work struct {
	act   [][]float64 // act[0] = input, act[l] = output of layer l
	delta [][]float64
}

func (n *Net) newWork() *work {
	w := &work{act: make([][]float64, len(n.Sizes)), delta: make([][]float64, len(n.Sizes))}
	for l, s := range n.Sizes {
		w.act[l] = make([]float64, s)
		w.delta[l] = make([]float64, s)
	}
	return w
}

// forward scores x (len Sizes[0]), leaving the activations in w.
func (n *Net) forward(x []float64, w *work) float64 {
	copy(w.act[0], x)
	off := 0
	last := len(n.Sizes) - 2
	for l := 0; l <= last; l++ {
		in, out := n.Sizes[l], n.Sizes[l+1]
		W := n.Params[off : off+in*out]
		b := n.Params[off+in*out : off+in*out+out]
		src, dst := w.act[l], w.act[l+1]
		for o := 0; o < out; o++ {
			s := b[o] + floats.Dot(W[o*in:(o+1)*in], src)
			if l < last {
				s = math.Tanh(s)
			}
			dst[o] = s
		}
		off += in*out + out
	}
	return w.act[len(n.Sizes)-1][0]
}

// backward adds g · ∂score/∂params to grad, for the pass left in w.
func (n *Net) backward(g float64, w *work, grad []float64) {
	L := len(n.Sizes) - 1
	w.delta[L][0] = g
	// Offsets of each layer's parameters.
	offs := make([]int, L+1)
	for l := 0; l < L; l++ {
		offs[l+1] = offs[l] + n.Sizes[l]*n.Sizes[l+1] + n.Sizes[l+1]
	}
	for l := L - 1; l >= 0; l-- {
		in, out := n.Sizes[l], n.Sizes[l+1]
		off := offs[l]
		W := n.Params[off : off+in*out]
		gW := grad[off : off+in*out]
		gb := grad[off+in*out : off+in*out+out]
		src, d := w.act[l], w.delta[l+1]
		prev := w.delta[l]
		if l > 0 {
			for i := range prev {
				prev[i] = 0
			}
		}
		for o := 0; o < out; o++ {
			do := d[o]
			if do == 0 {
				continue
			}
			gb[o] += do
			floats.AddScaled(gW[o*in:(o+1)*in], do, src)
			if l > 0 {
				floats.AddScaled(prev, do, W[o*in:(o+1)*in])
			}
		}
		if l > 0 { // through tanh: d tanh = 1 − a²
			for i, a := range src {
				prev[i] *= 1 - a*a
			}
		}
	}
}

// adam is the Adam optimizer's state for one parameter vector.
type adam struct {
	lr, b1, b2, eps float64
	m, v            []float64
	t               int
}

func newAdam(n int, lr float64) *adam {
	return &adam{lr: lr, b1: 0.9, b2: 0.999, eps: 1e-8, m: make([]float64, n), v: make([]float64, n)}
}

func (a *adam) step(params, grad []float64) {
	a.t++
	c1 := 1 - math.Pow(a.b1, float64(a.t))
	c2 := 1 - math.Pow(a.b2, float64(a.t))
	for i, g := range grad {
		a.m[i] = a.b1*a.m[i] + (1-a.b1)*g
		a.v[i] = a.b2*a.v[i] + (1-a.b2)*g*g
		params[i] -= a.lr * (a.m[i] / c1) / (math.Sqrt(a.v[i]/c2) + a.eps)
	}
}

"""The help tab: each measure's definition, its source, and when to trust it (rendered with MathJax)."""

from dash import dcc

import measures
from lab.compute import catalogue

__all__ = ["HELP_MARKDOWN", "help_panel", "measure_table"]

HELP_MARKDOWN = r"""
### Reading the numbers

Every measure compares each input neighbourhood $X_i$ (the point and its $k$ nearest input neighbours,
$k+1$ points) with its embedding $Y_i$. Centre both, $X_c = HX_i$ and $Y_c = HY_i$ with
$H = I - \tfrac{1}{k+1}\mathbf{1}\mathbf{1}'$, and let $M = X_c'Y_c$ and $\mathrm{nuc}(M)$ the sum of its
singular values.

**Procrustes statistic** (Goldberg & Ritov 2009, Eq. 1): the residual of the best rotation
($A'A = I$) and translation of $Y_i$ onto $X_i$,

$$G(X_i, Y_i) = \|X_c\|_F^2 + \|Y_c\|_F^2 - 2\,\mathrm{nuc}(M).$$

**R** (Eq. 3) is its mean over neighbourhoods. **R_N** (Eq. 4) divides each by the neighbourhood's size,

$$R_N = \frac1n \sum_i \frac{G(X_i, Y_i)}{\|X_c\|_F^2},$$

0 for an output that is locally a rigid motion of the input. It grows without bound when a
neighbourhood is torn apart, so look at the median beside the mean: one short-circuited
neighbourhood can dominate the mean.

**R_C** (Eq. 7) also lets each neighbourhood be rescaled, $c = \mathrm{nuc}(M)/\|Y_c\|_F^2$:

$$R_C = \frac1n \sum_i \frac{\|X_c\|_F^2 - \mathrm{nuc}(M)^2/\|Y_c\|_F^2}{\|X_c\|_F^2} \in [0, 1].$$

**Lower bound** (Lemma 1): the share of $\|X_c\|_F^2$ outside the top $d$ local principal axes.
No $d$-dimensional output scores below it, so $\text{bound} \le R_C \le R_N$ at every point; a large
bound says the data are not locally $d$-dimensional at this $k$ (noise, curvature, a too-large $k$).

**ASIM** (Zhang, Ren & Zhang, NIEQA, Eqs. 5–13) allows an orthonormal $P$ and a separate scale per
output axis, $D$ diagonal: $\min_{P, D, t} \|X_c - Y_c D P'\|_F^2 / \|X_c\|_F^2 \in [0, 1]$. It forgives
the per-axis scaling of a normalized output, so **M_L** (Eq. 18), its mean, reads normalized and
isometric outputs alike. **M_G** (Eq. 19) is ASIM of the output at 10% landmark points (the most
shortest paths pass through them) against the classical MDS of their graph geodesics; the overlay
draws both.

**Trustworthiness and continuity** (Venna & Kaski) penalize false and missing output neighbours by
rank; **1 − M_LC** is the share of input neighbours kept; **residual variance** is $1 - \rho^2$
between graph geodesics and output distances; **M_t** is ASIM of the whole output against the ground
truth.

**Price of normalization** (Goldberg, Zakai, Kushnir & Ritov, §5): LEM, LLE and LTSA minimize
$\Phi(Y) = \sum_i \|W_i Y_i\|_F^2$ under $\mathrm{Cov}(Y) = I$. With $Y$ the whitened truth and $Z$ a
curve folded along its long axis (Eqs. 9, 10), $\Phi(Y) > \Phi(Z)$ means the algorithm prefers the
collapsed curve: a necessary condition for success fails. The **collapse score** (whitened output,
share of variance not explained by the long intrinsic axis) says whether it did: about 0.5 for a
faithful 2-D output, near 0 for a curve.

### When to trust which

- **Isometric outputs** (PCA, Isomap, landmark Isomap, MDS, GP, PSA) keep the input's scale: read
  **R_N**. Isomap on the swiss roll scores about 0.08 at $k = 10$ with $n = 1600$.
- **Normalized outputs** (LLE, MLLE, HLLE, LTSA, Laplacian eigenmaps, diffusion maps) fix their scale
  by a constraint (unit variance or unit norm per coordinate), so R_N is near 0.8–1 whatever their
  quality (LTSA 0.99, LLE 0.81 on the swiss roll, Goldberg & Ritov Table 2): read **R_C**, which
  forgives a scale per neighbourhood, or **ASIM**, which forgives one per axis. The Normalization tab
  shows when such outputs collapse long shapes.
- All of these are local: an output can tear the manifold apart (or fold it) and still score well on
  most neighbourhoods. Look at the colour maps, M_G and the landmark overlay as well.
- **Is a value good?** Under each card: R_N's and R_C's *floor* on this input (no output in the
  output's dimension scores below it, Goldberg & Ritov's Lemma 1) or a rank measure's best value;
  "Yardsticks: random and best values" adds each measure's value on outputs that keep nothing of the
  input (the points shuffled; a Gaussian cloud of the output's scale). A measure that scores the run no
  better than those is marked red: it cannot tell this output from noise.

### Using the views

- **Hover** a point to ring it in both views (for digits and globe views, its image shows in the
  views' corner); **click** it to draw its $k$ input neighbours and its kNN edges in both views (an
  edge that short-circuits the manifold, between two turns of a roll, is a long chord in the output)
  and to open the neighbourhood inspector: the input neighbourhood on its two principal axes beside
  the output after each measure's best alignment (rotation; rotation and scale; per-axis scales),
  with the residual segments each measure sums.
- Class labels (the digits) are coloured one colour per class with a legend; any other colouring
  has a colour bar over its 2nd–98th percentiles.
- **Select** with the box or lasso tool of the output view, or of the input drawn in a plane ("Input
  view"): the same points are marked in the other view, and their mean local measures are compared
  with all points'.
- **Find points** (below the views): `R_N > 0.5`, `continuity bottom 1%`, `rows 3, 10-20` or a truth
  column by its label, clauses joined by "and"; the points found are marked in both views, and the link
  keeps the query.
- **Colour by "false vs missing neighbours"** paints where the output brings in points that were far in
  the input (orange, trustworthiness lost) and where it pushes away input neighbours (blue, continuity
  lost).
- **Report (HTML)** saves the run as one file that opens in any browser without this server.
- Above 20 000 points the views draw a seeded random subsample (the NIEQA landmarks always among
  them); every number is computed on all points.

### Tours and presentation mode

The menu at the top of the page lists the **tours** of the papers (Goldberg & Ritov; Zhang, Ren &
Zhang; Goldberg, Zakai, Kushnir & Ritov; Zhang & Wang; Aamari's lecture on MDS, Isomap and LLE).
A step sets every control, recomputes the paper's panels side by side with R_N and R_C (or the
paper's own measure) under each, and says what to see. Its numbers are filled in from the runs, and
each claim it makes is checked on them: ✓ holds, ✗ does not. Where our computation does not
reproduce the paper, the step says so and why. **Back** and **Next** walk a tour; a link
`?tour=gr-fig1` opens a step.

**Presentation** (top right, or `present=1` in a link) hides the control panel, enlarges the type
and lets the views fill the window, for a projector; Back and Next keep it on.

The mathematics, and the decisions taken where a paper is ambiguous, are in the project's SPEC.
"""


def measure_table():
    """Every measure a run computes, its source and which end is good, from the measure registry."""
    rows = ["| measure | what it says | source | better |", "|---|---|---|---|"]
    for name in catalogue.RUN_MEASURES:
        spec = measures.spec(name)
        better = {True: "higher", False: "lower", None: "no direction"}[spec.higher_is_better]
        rows.append(f"| {spec.label} | {spec.description} | {spec.citation} | {better} |")
    return "\n".join(rows)


def help_panel():
    """The help text as a component (MathJax typesets the formulas), then the table of measures."""
    return dcc.Markdown(HELP_MARKDOWN + "\n### Every measure, and which end is good\n\n" + measure_table(),
                        mathjax=True, className="help-text")

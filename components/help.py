"""The help tab: each measure's definition, its source, and when to trust it (rendered with MathJax)."""

from dash import dcc

__all__ = ["HELP_MARKDOWN", "help_panel"]

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

### When to trust which

- **Isometric outputs** (PCA, Isomap; later GP and PSA) keep the input's scale: read **R_N**.
  Isomap on the swiss roll scores about 0.08 at $k = 10$ with $n = 1600$.
- **Normalized outputs** (LLE, LTSA, Laplacian eigenmaps) fix their scale by a constraint (unit
  variance or unit norm per coordinate), so R_N is near 0.8–1 whatever their quality (LTSA 0.99, LLE
  0.81 on the swiss roll, Goldberg & Ritov Table 2): read **R_C**, which forgives a scale per
  neighbourhood. Goldberg, Zakai, Kushnir & Ritov (price of normalization) show why such outputs
  collapse long strips.
- All three are local: an output can tear the manifold apart (or fold it) and still score well on
  most neighbourhoods. Look at the colour maps as well as the numbers.

The mathematics, and the decisions taken where a paper is ambiguous, are in the project's SPEC.
"""


def help_panel():
    """The help text as a component (MathJax typesets the formulas)."""
    return dcc.Markdown(HELP_MARKDOWN, mathjax=True, className="help-text")

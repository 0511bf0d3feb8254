/* A tour step as a slide: its figure at 1920 × 1080 with the step's title above, its claims under the
 * title and the view's link at the foot, downloaded as PNG or SVG (the page's figure format).
 *
 * Registered as the clientside callback procrustesTours.slide (components/tours.py), run on the
 * Slide button's click. The figure is the one on the page: nothing is computed or fetched again. */
(function () {
  const FIGURE = 'tour-figure'; // components/ids.py TOUR_FIGURE
  const TITLE = 'tour-step-title'; // TOUR_STEP_TITLE
  const CLAIMS = 'tour-claims'; // TOUR_CLAIMS
  const WIDTH = 1920;
  const HEIGHT = 1080;
  const TITLE_SIZE = 34;
  const CLAIM_SIZE = 22;
  const FIGURE_SIZE = 20;
  const LINE = 1.5; // line height, in font sizes
  const CLAIM_CHARACTERS = 130; // a claim's line at CLAIM_SIZE fits the slide's width

  function text(node) {
    return node ? node.textContent.trim() : '';
  }

  // Plotly's annotations take <br> for a new line and read '<' as markup.
  function escaped(value) {
    return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  }

  // A claim's words in lines of at most CLAIM_CHARACTERS characters.
  function wrapped(claim) {
    const lines = [''];
    for (const word of claim.split(/\s+/)) {
      const last = lines.length - 1;
      if (lines[last] && lines[last].length + 1 + word.length > CLAIM_CHARACTERS) {
        lines.push(word);
      } else {
        lines[last] = lines[last] ? `${lines[last]} ${word}` : word;
      }
    }
    return lines;
  }

  // A text's font at FIGURE_SIZE at least: the panels' titles and captions carry their own small sizes.
  function readable(font) {
    return Object.assign({}, font, {size: Math.max(FIGURE_SIZE, (font && font.size) || 0)});
  }

  function slideLayout(layout, title, claims, link) {
    claims = claims.flatMap(wrapped);
    const header = 40 + LINE * TITLE_SIZE + claims.length * LINE * CLAIM_SIZE + 30;
    const margin = Object.assign({l: 60, r: 60}, layout.margin, {t: header, b: 80});
    let top = HEIGHT - 40; // pixels from the slide's foot, going down the header
    const line = (value, size, weight) => {
      top -= LINE * size;
      return {text: weight ? `<b>${escaped(value)}</b>` : escaped(value), font: {size: size}, showarrow: false,
              xref: 'paper', x: 0, xanchor: 'left', yref: 'paper', y: 1, yanchor: 'bottom',
              yshift: top - (HEIGHT - header)};
    };
    const added = [line(title, TITLE_SIZE, true), ...claims.map((claim) => line(claim, CLAIM_SIZE, false)),
                   {text: escaped(link), font: {size: 16, color: '#555'}, showarrow: false, xref: 'paper', x: 0,
                    xanchor: 'left', yref: 'paper', y: 0, yanchor: 'top', yshift: -(margin.b - 30)}];
    // The panels' titles (annotations) and captions (axis titles) at a size a room reads.
    const axes = {};
    for (const [key, axis] of Object.entries(layout)) {
      if (/^[xy]axis\d*$/.test(key) && axis && axis.title) {
        axes[key] = Object.assign({}, axis, {title: Object.assign({}, axis.title, {font: readable(axis.title.font)})});
      }
    }
    const panels = (layout.annotations || []).map((note) => Object.assign({}, note, {font: readable(note.font)}));
    return Object.assign({}, layout, axes, {width: WIDTH, height: HEIGHT, margin: margin, title: {text: ''},
                                            font: readable(layout.font), annotations: panels.concat(added)});
  }

  window.dash_clientside = Object.assign({}, window.dash_clientside, {
    procrustesTours: {
      slide: function (clicks, state) {
        const graph = document.querySelector(`#${FIGURE} .js-plotly-plot`);
        if (!clicks || !graph || !graph.data || !graph.data.length) {
          return window.dash_clientside.no_update;
        }
        const display = (state && state.display) || {};
        const format = display.figure_format === 'svg' ? 'svg' : 'png';
        const claims = Array.from(document.querySelectorAll(`#${CLAIMS} li`)).map(text);
        const layout = slideLayout(graph.layout, text(document.getElementById(TITLE)), claims,
                                   window.location.href);
        window.Plotly.downloadImage({data: graph.data, layout: layout},
                                    {format: format, width: WIDTH, height: HEIGHT,
                                     filename: `procrustes-lab_${(state && state.tour) || 'tour'}_slide`});
        return window.dash_clientside.no_update;
      },
    },
  });
})();

// The explorer page: controls -> debounced requests to the server's JSON API (a newer request aborts
// the older one, here and on the server) -> images, metrics, plots, plan and shader code.
'use strict';

const $ = (id) => document.getElementById(id);
const state = {
  info: null,
  client: Math.random().toString(36).slice(2) + Date.now().toString(36),  // this page: newer requests supersede older
  inflight: {},          // kind -> AbortController
  timer: null,
  plotKey: '',
  codegenKey: '',
  methodTouched: false,
  last: null,            // the last /api/blur answer
  busy: 0,
};
window.fastblurState = state;  // for tests and the curious

// sigma sliders are logarithmic: 0..1000 -> 0.3..max
const SIGMA_MIN = 0.3;
function sliderToSigma(v, max) { return +(SIGMA_MIN * Math.pow(max / SIGMA_MIN, v / 1000)).toPrecision(3); }
function sigmaToSlider(s, max) { return Math.round(1000 * Math.log(Math.max(s, SIGMA_MIN) / SIGMA_MIN) / Math.log(max / SIGMA_MIN)); }

function fmt(v, digits = 4) {
  if (v === null || v === undefined) return '–';
  if (typeof v !== 'number') return String(v);
  if (!isFinite(v)) return String(v);
  if (v !== 0 && (Math.abs(v) < 1e-3 || Math.abs(v) >= 1e5)) return v.toExponential(2);
  return +v.toPrecision(digits) + '';
}

function setStatus(text) { $('status').textContent = text; }

// One request of a kind at a time: a new one aborts the old (AbortController).
async function request(kind, url, options = {}) {
  if (state.inflight[kind]) state.inflight[kind].abort();
  const controller = new AbortController();
  state.inflight[kind] = controller;
  try {
    const res = await fetch(url, { ...options, signal: controller.signal, credentials: 'same-origin' });
    if (!res.ok) {
      let message = `HTTP ${res.status}`;
      try { message = (await res.json()).error || message; } catch (e) { /* not JSON */ }
      const err = new Error(message);
      err.status = res.status;
      throw err;
    }
    return res;
  } finally {
    if (state.inflight[kind] === controller) delete state.inflight[kind];
  }
}
const aborted = (e) => e.name === 'AbortError' || e.status === 409;

function algorithmInfo(name) { return state.info.algorithms.find((a) => a.name === name); }

// A sigma box's value, or an error shown at the box (and null): out of range is never run as
// another value.
function sigmaOf(id, errorId, min) {
  const max = state.info.limits.max_sigma;
  const raw = $(id).value.trim();
  const v = +raw;
  let error = '';
  if (raw === '' || !isFinite(v)) error = 'sigma must be a number';
  else if (v < min || (min === 0 ? v < 0 : v <= 0)) error = `sigma must be at least ${min}`;
  else if (v > max) error = `sigma must be at most ${max} in the explorer`;
  $(errorId).textContent = error;
  return error ? null : v;
}

function params() {
  const sx = sigmaOf('sigma-number', 'sigma-error', SIGMA_MIN);
  const sy = $('per-axis').checked ? sigmaOf('sigma-y-number', 'sigma-y-error', 0) : sx;
  if (sx === null || sy === null) return null;
  const options = {};
  for (const el of $('options').querySelectorAll('[data-flag]')) {
    if (el.type === 'checkbox') { if (el.checked) options[el.dataset.flag] = true; }
    else if (el.value !== '') options[el.dataset.flag] = el.value;
  }
  const p = {
    image: $('image-select').value,
    sigma: [sx, sy],
    border: $('border').value,
    algorithm: $('algorithm').value,
    device: $('device').value,
    options,
    client: state.client,
  };
  if (p.algorithm === 'auto') p.tolerance = +$('tolerance').value || 0;
  return p;
}

function fillSelect(select, items, value) {
  select.innerHTML = '';
  for (const [v, label] of items) {
    const o = document.createElement('option');
    o.value = v; o.textContent = label;
    select.appendChild(o);
  }
  if (value !== undefined && items.some(([v]) => v === value)) select.value = value;
}

// The algorithms the chosen device runs (the registry's capabilities).
function fillAlgorithms() {
  const gpu = $('device').value !== 'cpu';
  const current = $('algorithm').value || 'auto';
  fillSelect($('algorithm'), state.info.algorithms.filter((a) => (gpu ? a.vulkan : a.cpu)).map((a) => [a.name, a.name]), current);
  buildOptions();
}

// The algorithm's own options, as its descriptor declares them (empty = the algorithm's default).
function buildOptions() {
  const a = algorithmInfo($('algorithm').value);
  $('algorithm-summary').textContent = a ? a.summary : '';
  $('tolerance-row').hidden = $('algorithm').value !== 'auto';
  const box = $('options');
  box.innerHTML = '';
  if (!a) return;
  for (const p of a.parameters) {
    const label = document.createElement('label');
    label.title = p.doc;
    label.append(`--${p.flag} `);
    let input;
    if (p.kind === 'flag') {
      input = document.createElement('input');
      input.type = 'checkbox';
      label.className = 'inline';
    } else if (p.kind === 'choice') {
      input = document.createElement('select');
      input.appendChild(new Option(`default (${p.choices[0]})`, ''));
      for (const c of p.choices) input.appendChild(new Option(c, c));
    } else {
      input = document.createElement('input');
      input.type = p.kind === 'real_list' ? 'text' : 'number';
      if (p.kind !== 'real_list') { input.min = p.zero_chooses ? 0 : p.min; input.max = p.max; input.step = p.kind === 'integer' ? 1 : 'any'; }
    }
    input.dataset.flag = p.flag;
    input.addEventListener(input.tagName === 'SELECT' || input.type === 'checkbox' ? 'change' : 'input', schedule);
    label.appendChild(input);
    const doc = document.createElement('div');
    doc.className = 'small';
    // Every parameter has a default in the registry: an empty field takes it, and the line says which.
    doc.textContent = p.kind === 'flag' || p.kind === 'choice' ? `${p.doc} (${p.range})`
                                                              : `${p.doc} (${p.range}; left empty: ${p.default})`;
    label.appendChild(doc);
    box.appendChild(label);
  }
}

function schedule() {
  clearTimeout(state.timer);
  // debounced: a slider drag sends one request per pause; state.timer is null once it has fired
  state.timer = setTimeout(() => { state.timer = null; update(); }, 150);
}

// The reply names its pictures by URL: the browser fetches the two shown at once in parallel, and
// the difference only while the difference view is shown.
function setImages(r) {
  for (const [id, src] of [['img-result', r.images.result], ['img-exact', r.images.exact],
    ['img-side-exact', r.images.exact]]) $(id).src = src;
  showDiffIfVisible();
  applyZoom();
}

function showDiffIfVisible() {
  const want = state.last && $('stage').classList.contains('mode-diff') ? state.last.images.diff : null;
  if (want && $('img-diff').getAttribute('src') !== want) $('img-diff').src = want;
}

// Fit: the whole image inside the window (its width and height); else the zoom in pixels. The
// exact image over the result takes the result's box (style.css).
function applyZoom() {
  const z = +$('zoom').value;
  const w = state.last ? state.last.image.preview_width : 0;
  for (const id of ['img-result', 'img-side-exact', 'img-diff']) {
    const img = $(id);
    img.classList.toggle('fit', !z);
    img.style.width = z && w ? `${w * z}px` : '';
  }
  applySplit();
}

function applySplit() {
  const x = +$('split').value;
  $('img-exact').style.clipPath = `inset(0 0 0 ${x}%)`;
  $('split-line').style.left = `${x}%`;
}

function showResult(r) {
  state.last = r;
  setImages(r);
  const m = r.metrics;
  const plan = r.plan;
  // Kernel errors are fractions of the exact kernel's peak (max) or mass (L1); image errors are in
  // the preview's values (integer images over their range: 0-1). Every row is the user's sigma.
  const rows = [
    ['time (preview)', `${fmt(r.time_ms, 3)} ms`, 'time'],
    ['exact fir time (CPU, this request)', `${fmt(r.exact_ms, 3)} ms`, 'exact-time'],
    ['device', r.device, 'device'],
    ['algorithm', plan.algorithm, 'algorithm'],
    ['predicted max error (× kernel peak)', fmt(plan.predicted_max_error), 'predicted'],
    ['effective sigma', fmt(m.effective_sigma), 'effective-sigma'],
    ['max error, 1D (× kernel peak)', fmt(m.max_error), 'max-error'],
    ['L1 error, 1D (× kernel mass)', fmt(m.l1_error), 'l1-error'],
    ['max error, 2D (× kernel peak)', fmt(m.max_error_2d), 'max-error-2d'],
    ['anisotropy (× kernel peak)', fmt(m.anisotropy), 'anisotropy'],
    ['PSNR vs exact (preview, peak 1)', m.psnr_db === null ? '∞ (identical)' : `${fmt(m.psnr_db, 3)} dB`, 'psnr'],
    ['max |result − exact| (image values, 0–1)', fmt(m.image_max_abs), 'image-max'],
    ['truncation drops (× kernel mass)', fmt(m.truncation_mass), 'truncation'],
    ['exact fir truncation drops (× mass)', fmt(m.exact_truncation_mass), 'exact-truncation'],
    ['achieved sigma x, y', `${fmt(plan.axes[0].achieved_sigma)}, ${fmt(plan.axes[1].achieved_sigma)}`, 'achieved'],
  ];
  if (m.error) rows.push(['metrics', m.error, 'metrics-error']);
  const body = $('metrics').tBodies[0];
  body.innerHTML = '';
  for (const [name, value, key] of rows) {
    const tr = body.insertRow();
    tr.insertCell().textContent = name;
    const td = tr.insertCell();
    td.textContent = value;
    td.id = `m-${key}`;
  }
  $('explain').textContent = plan.description;
  $('diff-max').textContent = fmt(r.diff.scale_max) + (r.diff.max > r.diff.scale_max ? ` (largest ${fmt(r.diff.max)})` : '');
  const stops = r.diff.colormap.map((c) => `rgb(${c.map((v) => Math.round(v * 255)).join(',')})`);
  $('colorbar').style.background = `linear-gradient(to right, ${stops.join(',')})`;
  $('caption-a').textContent = `${r.preview_algorithm} on ${r.device}`;
  // Beside the result: what the preview ran when it is not the user's blur at full size.
  const [sx, sy] = r.sigma, [px, py] = r.sigma_run;
  const sig = (a, b) => (a === b ? fmt(a) : `${fmt(a)}, ${fmt(b)}`);
  $('preview-note').textContent = r.image.scale > 1
    ? `preview at 1/${r.image.scale} scale (${r.image.preview_width}×${r.image.preview_height}): sigma ${sig(px, py)} runs ` +
      `for your sigma ${sig(sx, sy)} on the ${r.image.width}×${r.image.height} image; every figure below is for your sigma` +
      (r.preview_note ? `; ${r.preview_note}` : '')
    : '';
  $('image-info').textContent = `${r.image.name}: ${r.image.width}×${r.image.height}, ${r.image.channels} channels, ${r.image.type}`;
}

// Results that no longer answer the controls (the last request failed, or the input is invalid).
function markStale(why) {
  $('viewer').classList.add('stale');
  $('stale-note').textContent = `stale: ${why}; showing the last result`;
}

async function update() {
  const p = params();
  if (!p) { markStale('an input is out of range'); setStatus('error'); return; }
  $('request-error').textContent = '';
  setStatus('computing…');
  try {
    const res = await request('blur', '/api/blur', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(p),
    });
    const r = await res.json();
    showResult(r);
    $('viewer').classList.remove('stale');
    $('stale-note').textContent = '';
    setStatus(`${r.plan.algorithm}: ${fmt(r.time_ms, 3)} ms (exact fir ${fmt(r.exact_ms, 3)} ms)`);
    document.body.dataset.updated = String((+document.body.dataset.updated || 0) + 1);
    // The plots and the shader of the algorithm the plan chose (auto resolved), at the user's sigma.
    const resolved = { ...p, algorithm: r.plan.algorithm };
    delete resolved.tolerance;
    updatePlots(resolved);
    updateCodegen(resolved);
  } catch (e) {
    if (aborted(e)) return;
    $('request-error').textContent = e.message;
    markStale('the last request failed');
    setStatus('error');
  }
}

async function updatePlots(p) {
  const q = { sigma: p.sigma[0], algorithm: p.algorithm, options: p.options };
  if (p.tolerance !== undefined) q.tolerance = p.tolerance;
  const key = JSON.stringify(q);
  if (key === state.plotKey) return;
  const enc = encodeURIComponent(key);
  try {
    const [impulse, cross] = await Promise.all([
      request('plot-impulse', `/api/plot?kind=impulse&params=${enc}`).then((r) => r.text()),
      request('plot-cross', `/api/plot?kind=cross_section&params=${enc}`).then((r) => r.text()),
    ]);
    for (const [id, svg] of [['plot-impulse', impulse], ['plot-cross', cross]]) {
      $(id).innerHTML = svg;
      // analyze's SVGs have a fixed size: a viewBox lets them scale to the panel
      const el = $(id).querySelector('svg');
      if (el && !el.getAttribute('viewBox')) el.setAttribute('viewBox', `0 0 ${el.getAttribute('width')} ${el.getAttribute('height')}`);
      if (el) { el.removeAttribute('width'); el.removeAttribute('height'); }
    }
    state.plotKey = key;
  } catch (e) {
    if (aborted(e)) return;
    $('plot-impulse').textContent = e.message;
    $('plot-cross').textContent = '';
    state.plotKey = '';
  }
}

// The shader for the chosen sigma: the method follows the algorithm until the user picks one.
async function updateCodegen(p) {
  if (!state.methodTouched) {
    const a = p.algorithm;
    $('cg-method').value = a === 'kawase' ? 'kawase' : a === 'dual-kawase' ? 'dual-kawase' : 'linear';
  }
  const q = `sigma=${encodeURIComponent(p.sigma[0])}&method=${$('cg-method').value}&lang=${$('cg-lang').value}`;
  if (q === state.codegenKey) return;
  try {
    const text = await (await request('codegen', `/api/codegen?${q}`)).text();
    $('shader').textContent = text;
    $('codegen-error').textContent = '';
    state.codegenKey = q;
  } catch (e) {
    if (aborted(e)) return;
    $('shader').textContent = '';
    $('codegen-error').textContent = e.message;
    state.codegenKey = '';
  }
}

async function upload(file) {
  $('upload-error').textContent = '';
  if (file.size > state.info.limits.max_upload_bytes) {
    $('upload-error').textContent = `the file is ${file.size} bytes, more than the upload limit of ${state.info.limits.max_upload_bytes}`;
    return;
  }
  setStatus(`uploading ${file.name}…`);
  try {
    const res = await request('upload', '/api/image', {
      method: 'POST', body: file,
      headers: { 'Content-Type': 'application/octet-stream', 'X-Filename': encodeURIComponent(file.name) },
    });
    const r = await res.json();
    const option = new Option(`${r.name} (${r.width}×${r.height})`, r.id);
    $('image-select').appendChild(option);
    $('image-select').value = r.id;
    // The server keeps a few uploads per page; forget the options it no longer has.
    const uploads = [...$('image-select').options].filter((o) => o.value !== 'scene');
    while (uploads.length > state.info.limits.images_per_session) uploads.shift().remove();
    update();
  } catch (e) {
    if (aborted(e)) return;
    $('upload-error').textContent = e.message;
    setStatus('upload failed');
  }
}

async function download() {
  const p = params();
  if (!p) return;
  delete p.client;
  setStatus('blurring at full resolution…');
  try {
    const res = await request('download', `/api/download?params=${encodeURIComponent(JSON.stringify(p))}`);
    const blob = await res.blob();
    const name = (/filename="([^"]+)"/.exec(res.headers.get('Content-Disposition') || '') || [])[1] || 'blurred';
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = name;
    document.body.appendChild(a);
    a.click();
    setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
    setStatus(`downloaded ${name}`);
  } catch (e) {
    if (!aborted(e)) { $('request-error').textContent = e.message; setStatus('error'); }
  }
}

function wire() {
  const max = state.info.limits.max_sigma;
  const pairs = [['sigma', 'sigma-number'], ['sigma-y', 'sigma-y-number']];
  for (const [slider, number] of pairs) {
    $(number).max = max;
    $(slider).value = sigmaToSlider(+$(number).value, max);
    $(slider).addEventListener('input', () => { $(number).value = sliderToSigma(+$(slider).value, max); schedule(); });
    $(number).addEventListener('input', () => { $(slider).value = sigmaToSlider(+$(number).value, max); schedule(); });
  }
  $('per-axis').addEventListener('change', () => { $('sigma-y-row').hidden = !$('per-axis').checked; schedule(); });
  for (const id of ['border', 'image-select', 'tolerance']) $(id).addEventListener('input', schedule);
  $('image-select').addEventListener('input', () => { $('upload-error').textContent = ''; });
  // Side by side, zoomed: both panes scroll together, so the same pixels stay beside each other.
  const panes = [...document.querySelectorAll('.layers')];
  for (const pane of panes)
    pane.addEventListener('scroll', () => {
      for (const other of panes)
        if (other !== pane && (other.scrollLeft !== pane.scrollLeft || other.scrollTop !== pane.scrollTop)) {
          other.scrollLeft = pane.scrollLeft;
          other.scrollTop = pane.scrollTop;
        }
    });
  $('device').addEventListener('change', () => { fillAlgorithms(); schedule(); });
  $('algorithm').addEventListener('change', () => { buildOptions(); schedule(); });
  // The shader of the algorithm the last result ran (auto resolved).
  const shown = () => ({ ...params(), algorithm: state.last ? state.last.plan.algorithm : $('algorithm').value });
  $('cg-method').addEventListener('change', () => { state.methodTouched = true; if (params()) updateCodegen(shown()); });
  $('cg-lang').addEventListener('change', () => { if (params()) updateCodegen(shown()); });
  $('zoom').addEventListener('change', applyZoom);
  $('split').addEventListener('input', applySplit);
  for (const input of document.querySelectorAll('input[name=mode]'))
    input.addEventListener('change', () => { $('stage').className = `stage mode-${input.value}`; showDiffIfVisible(); });
  $('file').addEventListener('change', () => { if ($('file').files[0]) upload($('file').files[0]); });
  const drop = $('drop');
  drop.addEventListener('dragover', (e) => { e.preventDefault(); drop.classList.add('over'); });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', (e) => {
    e.preventDefault();
    drop.classList.remove('over');
    if (e.dataTransfer.files[0]) upload(e.dataTransfer.files[0]);
  });
  $('download').addEventListener('click', download);
  $('copy').addEventListener('click', async () => {
    const text = $('shader').textContent;
    try {
      await navigator.clipboard.writeText(text);
    } catch (e) {  // no clipboard permission (plain http): select the text for Ctrl-C
      const range = document.createRange();
      range.selectNodeContents($('shader'));
      getSelection().removeAllRanges();
      getSelection().addRange(range);
      document.execCommand('copy');
    }
    $('copy-status').textContent = 'copied';
    setTimeout(() => { $('copy-status').textContent = ''; }, 1500);
  });
}

async function init() {
  try {
    state.info = await (await request('info', '/api/info')).json();
  } catch (e) {
    setStatus(`cannot reach the server: ${e.message}`);
    return;
  }
  $('version').textContent = `fastblur ${state.info.version}`;
  fillSelect($('border'), state.info.borders.map((b) => [b, b]), 'reflect');
  fillSelect($('device'), state.info.devices.map((d) => [d.name, d.description]), 'cpu');
  fillSelect($('cg-method'), state.info.codegen.methods.map((m) => [m, m]));
  fillSelect($('cg-lang'), state.info.codegen.languages.map((l) => [l, l]));
  fillAlgorithms();
  wire();
  update();
}

init();

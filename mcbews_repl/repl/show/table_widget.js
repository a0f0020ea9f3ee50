// mc.explore's front end (anywidget): the rows Python made from a frame's view, with a pick
// list per column worth choosing from, a search box, and sorting by a click on a column.

const STYLE = `
.mcbews-explore { font-family: var(--jp-ui-font-family, sans-serif); font-size: 13px;
  color: var(--jp-ui-font-color1, #222); }
.mcbews-explore .bar { display: flex; flex-wrap: wrap; gap: 10px; align-items: center;
  margin-bottom: 6px; }
.mcbews-explore select, .mcbews-explore input { font: inherit; padding: 2px 4px;
  color: inherit; background: var(--jp-layout-color1, #fff);
  border: 1px solid var(--jp-border-color1, #bbb); border-radius: 3px; }
.mcbews-explore .count { color: var(--jp-ui-font-color2, #888); }
.mcbews-explore .rows { max-height: 460px; overflow: auto; }
.mcbews-explore table { border-collapse: collapse; }
.mcbews-explore th, .mcbews-explore td { padding: 4px 8px; }
.mcbews-explore thead th { position: sticky; top: 0; cursor: pointer; user-select: none;
  background: var(--jp-layout-color1, #fff);
  border-bottom: 1px solid var(--jp-border-color1, #bbb); }
.mcbews-explore tbody tr:nth-child(odd) { background: var(--jp-layout-color2, #f5f5f5); }
.mcbews-explore tbody tr:hover { background: var(--jp-rendermime-table-row-hover-background, #e8f0fe); }
`;

function compare(a, b) {
  if (a === b) return 0;
  if (a === null) return 1; // empty cells last, whichever way the column is sorted
  if (b === null) return -1;
  return a < b ? -1 : 1;
}

function render({ model, el }) {
  const columns = model.get("columns");
  const rows = model.get("rows");
  const root = document.createElement("div");
  root.className = "mcbews-explore";
  const style = document.createElement("style");
  style.textContent = STYLE;
  const bar = document.createElement("div");
  bar.className = "bar";
  const picked = new Map(); // column index -> chosen value
  const state = { search: "", sortBy: null, descending: false };

  columns.forEach((column, index) => {
    if (!column.picks.length) return;
    const label = document.createElement("label");
    const select = document.createElement("select");
    select.dataset.column = column.header;
    select.append(new Option(`every ${column.header}`, ""));
    column.picks.forEach((value) => select.append(new Option(value, value)));
    select.addEventListener("change", () => {
      if (select.value) picked.set(index, select.value);
      else picked.delete(index);
      draw();
    });
    label.append(`${column.header} `, select);
    bar.append(label);
  });
  const search = document.createElement("input");
  search.type = "search";
  search.placeholder = "search";
  search.addEventListener("input", () => {
    state.search = search.value.trim().toLowerCase();
    draw();
  });
  const count = document.createElement("span");
  count.className = "count";
  bar.append(search, count);

  const table = document.createElement("table");
  const head = document.createElement("tr");
  const body = document.createElement("tbody");
  columns.forEach((column, index) => {
    const th = document.createElement("th");
    th.style.textAlign = column.align;
    th.title = "sort by this column";
    th.addEventListener("click", () => {
      state.descending = state.sortBy === index ? !state.descending : false;
      state.sortBy = index;
      draw();
    });
    head.append(th);
  });
  const thead = document.createElement("thead");
  thead.append(head);
  table.append(thead, body);
  const scroller = document.createElement("div");
  scroller.className = "rows";
  scroller.append(table);
  root.append(style, bar, scroller);
  el.append(root);

  function matches(row) {
    for (const [index, value] of picked) if (row.words[index] !== value) return false;
    return !state.search || row.words.join(" ").toLowerCase().includes(state.search);
  }

  function draw() {
    let shown = rows.filter(matches);
    if (state.sortBy !== null) {
      const at = state.sortBy;
      shown = shown
        .map((row, order) => ({ row, order }))
        .sort((a, b) => {
          const byKey = compare(a.row.keys[at], b.row.keys[at]);
          const sign = state.descending && a.row.keys[at] !== null && b.row.keys[at] !== null ? -1 : 1;
          return sign * byKey || a.order - b.order;
        })
        .map((item) => item.row);
    }
    body.innerHTML = shown.map((row) => `<tr>${row.cells.join("")}</tr>`).join("");
    head.childNodes.forEach((th, index) => {
      const arrow = state.sortBy === index ? (state.descending ? " \u25BC" : " \u25B2") : "";
      th.textContent = columns[index].header + arrow;
    });
    const total = model.get("total");
    const more = total > rows.length ? ` (the first ${rows.length} of ${total})` : "";
    count.textContent = `${shown.length} of ${rows.length} rows${more}`;
  }
  draw();
}

export default { render };

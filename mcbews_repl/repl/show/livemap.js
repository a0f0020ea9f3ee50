// The live map's front end (anywidget): shows the picture Python draws, a pause button and
// a status line, and tells Python whether the map is on screen, so the world is only asked
// while someone can see the answer.
//
// It tells Python with custom messages, not by setting synced state: the widget front end
// holds back later state changes until the kernel reports idle for the previous one, and a
// change sent while a cell runs (Run All) is never answered by that report, so every
// later change would stay in the browser.

function render({ model, el }) {
  const root = document.createElement("div");
  root.className = "mcbews-live-map";
  const bar = document.createElement("div");
  bar.style.cssText = "display:flex;gap:8px;align-items:center;margin-bottom:4px";
  const button = document.createElement("button");
  button.className = "jp-Button jp-mod-styled mcbews-map-pause";
  button.style.cssText = "padding:0 10px;height:24px";
  const status = document.createElement("span");
  status.className = "mcbews-map-status";
  status.style.cssText = "color:var(--jp-ui-font-color2, #888);font-size:0.85em";
  const picture = document.createElement("div");
  bar.append(button, status);
  root.append(bar, picture);
  el.append(root);
  // The map's static copy, an output of its own for front ends that cannot draw this
  // widget: drawn here, so hidden while this view is on the page (the rule goes with it).
  const id = model.get("map_id");
  if (/^[0-9a-f]+$/.test(id)) {
    const hide = document.createElement("style");
    const copy = `.mcbews-map-fallback[data-map="${id}"]`;
    hide.textContent = `${copy}, .jp-OutputArea-child:has(${copy}) { display: none; }`;
    root.append(hide);
  }

  function draw() {
    picture.innerHTML = model.get("html");
  }
  function label() {
    pausing = null;
    const paused = model.get("paused");
    button.textContent = paused ? "Resume updates" : "Pause updates";
    status.textContent = model.get("status");
  }
  let pausing = null; // what the reader asked for, until Python's answer arrives
  button.addEventListener("click", () => {
    pausing = !(pausing ?? model.get("paused"));
    model.send({ paused: pausing });
    button.textContent = pausing ? "Resume updates" : "Pause updates";
  });
  model.on("change:html", draw);
  model.on("change:status", label);
  model.on("change:paused", label);
  draw();
  label();

  let told = null;
  function tell(visible) {
    if (told !== visible) {
      told = visible;
      model.send({ visible });
    }
  }
  let onScreen = false;
  const observer = new IntersectionObserver((entries) => {
    onScreen = entries.some((entry) => entry.isIntersecting);
    tell(onScreen && document.visibilityState === "visible");
  });
  observer.observe(root);
  const onTab = () => tell(onScreen && document.visibilityState === "visible");
  document.addEventListener("visibilitychange", onTab);
  return () => {
    observer.disconnect();
    document.removeEventListener("visibilitychange", onTab);
    tell(false);
  };
}

export default { render };

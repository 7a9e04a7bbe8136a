// The report's behaviour: filters, and the step-through of each failing
// scenario. All data comes from the (escaped) document itself.
(function () {
  "use strict";
  var scenarios = Array.prototype.slice.call(document.querySelectorAll("details.scenario"));
  var ruleFilter = document.getElementById("rule-filter");
  var shown = document.getElementById("shown");

  function applyFilters() {
    var statuses = {};
    document.querySelectorAll("#filters input[name=status]").forEach(function (box) {
      statuses[box.value] = box.checked;
    });
    var rule = ruleFilter.value;
    var count = 0;
    scenarios.forEach(function (s) {
      var rules = s.getAttribute("data-rules").split(" ");
      var visible = statuses[s.getAttribute("data-status")] !== false &&
        (rule === "" || rules.indexOf(rule) >= 0);
      s.hidden = !visible;
      if (visible) { count += 1; }
    });
    shown.textContent = count + " of " + scenarios.length + " shown";
  }
  document.querySelectorAll("#filters input[name=status]").forEach(function (box) {
    box.addEventListener("change", applyFilters);
  });
  ruleFilter.addEventListener("change", applyFilters);

  // The stepper the arrow keys move: the last one used, else the first
  // one on screen.
  var active = null;

  function Stepper(root) {
    var scenario = root.closest("details.scenario");
    var lines = Array.prototype.slice.call(root.querySelectorAll(".transcript > li"));
    var boards = Array.prototype.slice.call(root.querySelectorAll(".boards figure"));
    var noBoard = root.querySelector(".no-board");
    var findings = Array.prototype.slice.call(scenario.querySelectorAll(".finding[data-line]"));
    var box = root.querySelector(".transcript");
    var pos = root.querySelector(".pos");
    var start = Number(root.getAttribute("data-start"));
    var current = start;

    function show(i) {
      current = Math.max(0, Math.min(lines.length - 1, i));
      lines.forEach(function (line, k) { line.classList.toggle("current", k === current); });
      var frame = lines[current].getAttribute("data-frame");
      boards.forEach(function (b) { b.hidden = b.getAttribute("data-frame") !== frame; });
      if (boards.length > 0) { noBoard.hidden = frame !== "none"; }
      findings.forEach(function (f) {
        f.classList.toggle("here", f.getAttribute("data-line") === String(current));
      });
      pos.textContent = (current + 1) + " / " + lines.length;
      root.setAttribute("data-current", String(current));
      var line = lines[current];
      if (line.offsetTop < box.scrollTop || line.offsetTop + line.offsetHeight > box.scrollTop + box.clientHeight) {
        box.scrollTop = line.offsetTop - box.clientHeight / 2;
      }
    }
    this.step = function (delta) { active = this; show(current + delta); };
    this.go = function (i) { active = this; show(i); };
    this.visible = function () {
      var r = root.getBoundingClientRect();
      return !scenario.hidden && scenario.open && r.bottom > 0 && r.top < window.innerHeight;
    };
    var self = this;
    function on(cls, f) {
      var b = root.querySelector("button." + cls);
      if (b) { b.addEventListener("click", f); }
    }
    on("prev", function () { self.step(-1); });
    on("next", function () { self.step(1); });
    on("first", function () { self.go(0); });
    on("last", function () { self.go(lines.length - 1); });
    on("failing", function () { self.go(start); });
    lines.forEach(function (line, k) {
      line.addEventListener("click", function () { self.go(k); });
    });
    findings.forEach(function (f) {
      var b = f.querySelector("button.goto");
      if (b) { b.addEventListener("click", function () { self.go(Number(f.getAttribute("data-line"))); }); }
    });
    show(start);
  }

  var steppers = Array.prototype.slice.call(document.querySelectorAll(".stepper")).map(function (root) {
    return new Stepper(root);
  });
  active = null;

  // Only ← and →: the keys that scroll the page keep doing so.
  document.addEventListener("keydown", function (e) {
    var tag = e.target && e.target.tagName;
    if (tag === "SELECT" || tag === "INPUT" || tag === "TEXTAREA" || e.altKey || e.ctrlKey || e.metaKey) {
      return;
    }
    var target = active && active.visible() ? active : steppers.filter(function (s) { return s.visible(); })[0];
    if (!target) { return; }
    if (e.key === "ArrowRight") { target.step(1); e.preventDefault(); }
    else if (e.key === "ArrowLeft") { target.step(-1); e.preventDefault(); }
  });
  applyFilters();
})();

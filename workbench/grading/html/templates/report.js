// Filters the wrong answers by family, reader and verdict; no server, no network. A case's card
// shows while one of its answers does; an answer's boxes on the page hide with it.
(function () {
  "use strict";
  var form = document.getElementById("filters");
  if (!form) { return; }
  var cards = Array.prototype.slice.call(document.querySelectorAll(".card"));
  var total = document.querySelectorAll(".card .answer").length;
  var shown = document.getElementById("shown");
  var none = document.getElementById("none-shown");
  function apply() {
    var family = form.elements.family.value;
    var reader = form.elements.reader.value;
    var verdict = form.elements.verdict.value;
    var n = 0;
    cards.forEach(function (card) {
      var kept = 0;
      card.querySelectorAll(".answer").forEach(function (answer) {
        var keep = (!family || card.dataset.family === family) &&
          (!reader || answer.dataset.reader === reader) &&
          (!verdict || answer.dataset.verdict === verdict);
        answer.hidden = !keep;
        card.querySelectorAll('rect[data-answer="' + answer.dataset.answer + '"]').forEach(function (r) {
          r.style.display = keep ? "" : "none";
        });
        if (keep) { kept += 1; }
      });
      card.hidden = kept === 0;
      n += kept;
    });
    shown.textContent = n + " of " + total + " shown";
    none.hidden = n !== 0;
  }
  form.addEventListener("change", apply);
  form.addEventListener("reset", function () { setTimeout(apply, 0); });
  apply();
}());

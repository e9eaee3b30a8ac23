// RisiKo's decision form: while armies are typed in, say how many are left to place.
// The form works the same without this (the server checks the numbers); delegated from
// the document, so a form the game page swaps in (htmx) counts too.
document.addEventListener("input", function (event) {
  var form = event.target.closest && event.target.closest("form.risiko-form");
  if (!form) return;
  var place = form.querySelector("fieldset.place");
  if (!place) return;
  var need = parseInt(place.getAttribute("data-need"), 10) || 0;
  var traded = form.querySelector("input[name=trade]:checked");
  if (traded && traded.dataset.armies) need += parseInt(traded.dataset.armies, 10) || 0;
  var placed = 0;
  place.querySelectorAll("input[type=number]").forEach(function (input) {
    placed += Math.max(0, parseInt(input.value, 10) || 0);
  });
  var left = place.querySelector("output.left");
  if (left) left.value = String(need - placed);
});

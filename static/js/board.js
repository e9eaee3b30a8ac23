// On a screen narrower than the board, the board scrolls sideways in its frame: start
// it with the last move's marks in view rather than at the map's left edge. The page
// works the same without this.
// The game page swaps in a new board when the game changes (htmx): centre that one too.
function centreBoards() {
  document.querySelectorAll(".board-wrap").forEach(centreBoard);
}
function centreBoard(wrap) {
  var svg = wrap.querySelector("svg.board");
  var marks = wrap.querySelectorAll("circle.mark");
  if (!svg || marks.length === 0 || wrap.scrollWidth <= wrap.clientWidth) return;
  var scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  var xs = Array.prototype.map.call(marks, function (mark) { return mark.cx.baseVal.value; });
  var middle = (Math.min.apply(null, xs) + Math.max.apply(null, xs)) / 2;
  wrap.scrollLeft = middle * scale - wrap.clientWidth / 2;
}
centreBoards();
document.addEventListener("htmx:afterSettle", centreBoards);

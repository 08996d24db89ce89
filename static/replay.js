// The replay viewer's keys: the left and right arrows step back and forth, Home and End go to the first and
// last step (the links of the page, so that everything also works without this file); the slider goes to its
// step as soon as it is let go.
document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey || event.target.closest("input, select, textarea")) return;
  const target = {ArrowLeft: "rp-prev", ArrowRight: "rp-next", Home: "rp-first", End: "rp-last"}[event.key];
  const link = target && document.getElementById(target);
  if (link) {
    event.preventDefault();
    window.location.assign(link.href);
  }
});
document.addEventListener("change", (event) => {
  if (event.target.id === "rp-step") event.target.form.requestSubmit();
});

// Marks the page as scripted before it is drawn (the stylesheet shows script-only controls under .js).
// A file of its own, not an inline script: the Content-Security-Policy allows scripts from this site only.
document.documentElement.classList.add("js");

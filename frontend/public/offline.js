// The offline page's Try again, in a file of its own: the Content-Security-Policy runs no inline
// script.
document.getElementById('try-again').addEventListener('click', () => location.reload())

/**
 * Keys while the page has controls: the examples' keys (G for the timing graph, Space, F, T, …)
 * are ignored while a form control has the keyboard focus — a `<select>` would take G as
 * type-ahead, and the graph skips keys aimed at form fields on purpose. So once a control has
 * been used (a choice made, a button clicked, a box ticked) it gives the focus back to the page,
 * and the keys work again at once. Each page says so under its controls.
 */
export function keysAfterControls(root: ParentNode = document): void {
  for (const control of root.querySelectorAll<HTMLElement>('select, button, input')) {
    const release = () => control.blur();
    control.addEventListener('change', release);
    if (control instanceof HTMLButtonElement) control.addEventListener('click', release);
  }
}

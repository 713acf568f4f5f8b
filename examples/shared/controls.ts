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

/**
 * Touch (and mouse) buttons for keys that are held: each `button[data-hold]` calls
 * `down(key)` when pressed and `up(key)` when the finger or the mouse lets go (or the browser
 * takes the pointer away), `key` being its `data-hold` code — as the keyboard's keydown and
 * keyup would.
 */
export function holdButtons(
  down: (key: string) => void,
  up: (key: string) => void,
  root: ParentNode = document,
): void {
  for (const button of root.querySelectorAll<HTMLButtonElement>('button[data-hold]')) {
    const key = button.dataset.hold as string;
    button.addEventListener('pointerdown', (event) => {
      button.setPointerCapture(event.pointerId);
      down(key);
    });
    for (const end of ['pointerup', 'pointercancel', 'lostpointercapture'] as const) {
      button.addEventListener(end, () => up(key));
    }
  }
}

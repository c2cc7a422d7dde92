// A small element builder: the page makes its DOM with this, never from HTML strings.

/** Make element `tag` with attributes `attrs` and children (strings become text nodes). */
export function el(tag, attrs = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

/** Show or hide `element` (the hidden attribute; CSS never overrides it). */
export function show(element, visible) {
  element.hidden = !visible;
}

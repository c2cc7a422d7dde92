// Pictures from the server: parse the SVG text as XML, keep only drawing (no scripts, no event
// attributes, no links out of the document), and make its clickable moves usable by mouse and
// keyboard. The text comes from our own server; this is a second fence, not the only one.

const SVG_NS = "http://www.w3.org/2000/svg";
const DROPPED = new Set(["script", "foreignObject", "iframe", "object", "embed", "audio", "video"]);

function clean(element) {
  for (const child of Array.from(element.children)) {
    if (DROPPED.has(child.localName)) child.remove();
    else clean(child);
  }
  for (const attr of Array.from(element.attributes)) {
    const name = attr.name.toLowerCase();
    const value = attr.value.trim().toLowerCase();
    const link = name === "href" || name.endsWith(":href");
    if (name.startsWith("on") || (link && !value.startsWith("#")) || value.startsWith("javascript:")) {
      element.removeAttribute(attr.name);
    }
  }
}

/** Parse `text` into a cleaned <svg> element of this document (throws on anything else). */
export function parseSvg(text) {
  const doc = new DOMParser().parseFromString(text, "image/svg+xml");
  const root = doc.documentElement;
  if (root.namespaceURI !== SVG_NS || root.localName !== "svg" || doc.querySelector("parsererror")) {
    throw new Error("the server sent a picture that is not SVG");
  }
  clean(root);
  // the page scales the picture to its column: keep the viewBox, let CSS size it
  if (!root.hasAttribute("viewBox") && root.hasAttribute("width") && root.hasAttribute("height")) {
    const w = parseFloat(root.getAttribute("width"));
    const h = parseFloat(root.getAttribute("height"));
    if (w > 0 && h > 0) root.setAttribute("viewBox", `0 0 ${w} ${h}`);
  }
  root.removeAttribute("width");
  root.removeAttribute("height");
  root.setAttribute("preserveAspectRatio", "xMidYMin meet");
  return document.importNode(root, true);
}

/** The action texts an element carries (data-actions: a JSON list), or [] when unreadable. */
function carried(element) {
  try {
    const list = JSON.parse(element.getAttribute("data-actions") || "[]");
    return Array.isArray(list) ? list.filter((a) => typeof a === "string") : [];
  } catch {
    return [];
  }
}

/**
 * Put the picture `text` into `holder` (replacing what was there). With `legal` (a Set of action
 * texts) and `choose(actions, element)`, each `.act` element carrying a legal action becomes a
 * button; without them the picture is only drawn. Returns the number of clickable elements.
 */
export function showSvg(holder, text, legal = null, choose = null) {
  holder.replaceChildren();
  if (!text) return 0;
  const svg = parseSvg(text);
  holder.append(svg);
  let count = 0;
  for (const element of svg.querySelectorAll(".act")) {
    const actions = legal ? carried(element).filter((a) => legal.has(a)) : [];
    if (!actions.length || !choose) {
      element.classList.remove("act");
      element.classList.add("act-off");
      continue;
    }
    count += 1;
    element.setAttribute("tabindex", "0");
    element.setAttribute("role", "button");
    element.setAttribute("aria-label", actions.join(" or "));
    if (!element.querySelector(":scope > title")) {
      const title = document.createElementNS(SVG_NS, "title");
      title.textContent = actions.join("\n");
      element.prepend(title);
    }
    element.addEventListener("click", (event) => {
      event.stopPropagation();
      choose(actions, element);
    });
    element.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        choose(actions, element);
      }
    });
  }
  return count;
}

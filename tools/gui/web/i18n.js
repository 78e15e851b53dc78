// The page's languages: every string the page shows comes from
// messages.json by key. The language is ?lang=xx, else the one chosen
// before (localStorage), else the first of the browser's languages that the
// catalogue has, else English; <html lang> follows. Elements carry their
// key in data-i18n (text), data-i18n-title and data-i18n-placeholder.
export const LANGUAGES = ['en', 'ko', 'zh-Hant', 'zh-Hans', 'ja', 'es'];
const STORAGE_KEY = 'wallgo-lang';
let catalogue = {};
let language = 'en';
// Keys asked for that the catalogue lacks: the tests fail on any.
const missing = window.wallgoMissingKeys = new Set();

// The catalogue's language for a browser language tag, or null.
export function matchLanguage(tag) {
  const t = String(tag || '').toLowerCase();
  if (t.startsWith('zh')) {
    return /hant|-tw|-hk|-mo/.test(t) ? 'zh-Hant' : 'zh-Hans';
  }
  const base = t.split('-')[0];
  return LANGUAGES.find((l) => l.toLowerCase() === base) || null;
}

function chooseLanguage() {
  const asked = new URLSearchParams(location.search).get('lang');
  if (asked && matchLanguage(asked)) return matchLanguage(asked);
  let stored = null;
  try { stored = localStorage.getItem(STORAGE_KEY); } catch (e) { /* private mode */ }
  if (stored && LANGUAGES.includes(stored)) return stored;
  for (const tag of navigator.languages || [navigator.language]) {
    const found = matchLanguage(tag);
    if (found) return found;
  }
  return 'en';
}

// The message `key` with {name} replaced by params.name.
export function t(key, params = {}) {
  let text = catalogue[language]?.[key];
  if (text === undefined) {
    missing.add(`${language}:${key}`);
    text = catalogue.en?.[key] ?? key;
  }
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

export function colourName(colour) { return t(`colour.${colour}`); }
export function currentLanguage() { return language; }

// Fills every keyed element under `root`.
export function translate(root = document) {
  for (const e of root.querySelectorAll('[data-i18n]')) e.textContent = t(e.dataset.i18n);
  for (const e of root.querySelectorAll('[data-i18n-title]')) e.title = t(e.dataset.i18nTitle);
  for (const e of root.querySelectorAll('[data-i18n-placeholder]')) e.placeholder = t(e.dataset.i18nPlaceholder);
}

// Loads the catalogue, picks the language and fills in the page; `onChange`
// redraws the rest when the person picks another language.
export async function initLanguages(onChange) {
  catalogue = await (await fetch(new URL('messages.json', import.meta.url))).json();
  language = chooseLanguage();
  document.documentElement.lang = language;
  translate();
  const select = document.querySelector('[data-language-select]');
  if (select) {
    select.replaceChildren(...LANGUAGES.map((l) => new Option(catalogue[l]['lang.name'], l)));
    select.value = language;
    select.addEventListener('change', () => {
      language = select.value;
      try { localStorage.setItem(STORAGE_KEY, language); } catch (e) { /* private mode */ }
      document.documentElement.lang = language;
      translate();
      onChange?.();
    });
  }
}

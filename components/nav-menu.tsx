"use client";

// The navigation's menu on narrow screens: a button that shows or hides a panel below the bar
// (a disclosure, so the links follow the button in the tab order). Escape, a click elsewhere,
// tabbing out of it or following a link closes it; Escape from inside the panel gives focus back
// to the button.
import { Menu, X } from "lucide-react";
import { useEffect, useId, useRef, useState, type ReactNode } from "react";

export function NavMenu({ children, className = "" }: { children: ReactNode; className?: string }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const id = useId();

  useEffect(() => {
    if (!open) return;
    const closeOnEscape = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      // A dialog above the page closes first, and keeps the menu as it was.
      if (document.querySelector("dialog[open]")) return;
      setOpen(false);
      if (panel.current?.contains(document.activeElement)) button.current?.focus();
    };
    const closeOnClickElsewhere = (e: PointerEvent) => {
      const target = e.target as Node;
      if (!panel.current?.contains(target) && !button.current?.contains(target)) setOpen(false);
    };
    document.addEventListener("keydown", closeOnEscape);
    document.addEventListener("pointerdown", closeOnClickElsewhere);
    return () => {
      document.removeEventListener("keydown", closeOnEscape);
      document.removeEventListener("pointerdown", closeOnClickElsewhere);
    };
  }, [open]);

  return (
    <div
      className={className}
      // Tabbing on past the menu's last control closes it.
      onBlur={(e) => {
        if (open && e.relatedTarget && !e.currentTarget.contains(e.relatedTarget)) setOpen(false);
      }}
    >
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((o) => !o)}
        className="inline-flex size-9 items-center justify-center rounded-md text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-accent-600"
      >
        {open ? <X aria-hidden className="size-5" /> : <Menu aria-hidden className="size-5" />}
        <span className="sr-only">Menu</span>
      </button>
      <div
        ref={panel}
        id={id}
        hidden={!open}
        // A followed link closes the menu (the page changes below it).
        onClick={(e) => {
          if ((e.target as HTMLElement).closest("a")) setOpen(false);
        }}
        className="absolute inset-x-0 top-full max-h-[calc(100dvh-3.5rem)] overflow-y-auto border-b border-slate-200 bg-white px-4 py-3 shadow-lg"
      >
        {/* Only while open: what the wide bar shows is then in the page once, not twice. */}
        {open && children}
      </div>
    </div>
  );
}

/**
 * The docs build's rule "a public symbol without a doc comment is unfinished", as a check over
 * the TypeDoc project (after conversion, so inherited and `implements` comments are resolved).
 *
 * Modelled on TypeDoc's own `validation.notDocumented`, with two differences that match how
 * people read an API page:
 * - an accessor is one property: documenting its getter documents its setter;
 * - members of the object literal of a documented `const` (e.g. each preset's fields, the
 *   functions gathered in `integrate`) are covered by that constant's doc.
 * Everything else that is public — classes, interfaces, functions, variables, type aliases,
 * enums and their members, properties, methods, accessors, in every documented package — needs
 * its own comment (or its signature's).
 */
import {
  DeclarationReflection,
  type ProjectReflection,
  type Reflection,
  ReflectionKind,
  ReflectionType,
  type SignatureReflection,
} from 'typedoc';

const REQUIRED =
  ReflectionKind.Class |
  ReflectionKind.Interface |
  ReflectionKind.Enum |
  ReflectionKind.EnumMember |
  ReflectionKind.Variable |
  ReflectionKind.TypeAlias |
  ReflectionKind.Property |
  ReflectionKind.CallSignature |
  ReflectionKind.GetSignature |
  ReflectionKind.SetSignature;

/** True when `ref` sits in a parameter or in the object literal type of a `const`. */
function exempt(ref: Reflection): boolean {
  for (let r = ref.parent; r; r = r.parent) {
    if (r.kindOf(ReflectionKind.Parameter)) return true;
    if (r.kindOf(ReflectionKind.TypeLiteral)) {
      for (let owner = r.parent; owner; owner = owner.parent) {
        if (owner.kindOf(ReflectionKind.Variable)) return true;
        if (!owner.kindOf(ReflectionKind.TypeLiteral | ReflectionKind.Property)) break;
      }
    }
  }
  return false;
}

function documented(ref: Reflection): boolean {
  if (ref.hasComment()) return true;
  const parent = ref.parent;
  if (ref.kindOf(ReflectionKind.SomeSignature) && parent?.hasComment()) return true;
  if (ref.kindOf(ReflectionKind.SetSignature) && parent instanceof DeclarationReflection) {
    return parent.getSignature?.hasComment() ?? false;
  }
  return false;
}

/**
 * Full names of the public symbols of our packages (`@fixedtick/*`) that have no doc comment,
 * sorted. Empty means the API reference is complete.
 */
export function undocumentedSymbols(project: ProjectReflection): string[] {
  const missing = new Set<string>();
  const queue: Reflection[] = project.getReflectionsByKind(REQUIRED);
  const seen = new Set<Reflection>();
  while (queue.length > 0) {
    const ref = queue.shift() as Reflection;
    if (seen.has(ref)) continue;
    seen.add(ref);
    if (exempt(ref)) continue;
    // A call signature of a type literal stands for the alias or variable that owns it.
    if (
      ref.kindOf(ReflectionKind.CallSignature) &&
      ref.parent?.kindOf(ReflectionKind.TypeLiteral)
    ) {
      if (ref.parent.parent) queue.push(ref.parent.parent);
      continue;
    }
    if (ref instanceof DeclarationReflection) {
      const signatures: SignatureReflection[] =
        ref.type instanceof ReflectionType
          ? ref.type.declaration.getNonIndexSignatures()
          : ref.getNonIndexSignatures();
      if (signatures.length > 0 && !ref.hasComment()) {
        queue.push(...signatures);
        if (ref.kindOf(ReflectionKind.SignatureContainer)) continue;
      }
    }
    const id = project.getSymbolIdFromReflection(ref);
    if (id === undefined || !id.packageName.startsWith('@fixedtick/')) continue;
    if (!documented(ref)) {
      missing.add(`${ref.getFriendlyFullName()} (${ReflectionKind[ref.kind]}, ${id.packagePath})`);
    }
  }
  return [...missing].sort();
}

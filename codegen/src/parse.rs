//! Stage 1: schema.ts text → [`Decl`] values, with JSDoc and spans.
//! swc does the parsing; nothing of swc's leaves this file.

use std::path::Path;

use swc_common::comments::{Comment, CommentKind, Comments, SingleThreadedComments};
use swc_common::sync::Lrc;
use swc_common::{BytePos, FileName, SourceMap, Spanned};
use swc_ecma_ast as ast;
use swc_ecma_parser::{Syntax, TsSyntax, parse_file_as_module};

use crate::diag::{Diagnostic, Diagnostics, Span};
use crate::syntax::{
    ConstValue, Decl, DeclKind, Import, ImportedName, Member, RawDoc, TypeExpr, TypeKind, whole_number,
};

/// Parses one schema file. Syntax errors, and declarations the generator cannot
/// read, come back as diagnostics; the declarations that could be read are
/// returned alongside so later phases can report their own problems too. A core
/// schema imports nothing: an import is reported and not followed.
pub fn parse_schema(path: &Path, text: &str) -> (Vec<Decl>, Diagnostics) {
    let (decls, imports, mut diags) = parse_module(path, text);
    for import in imports {
        diags.push(
            Diagnostic::warning("module statement ignored")
                .at(path, import.span)
                .label("the generator reads only type, interface and const declarations")
                .hint("imports and re-exports are not followed; declare the types in this file"),
        );
    }
    (decls, diags)
}

/// [`parse_schema`] for an extension's schema, whose `import` declarations name
/// the core types it uses: they come back for the caller to resolve.
pub fn parse_module(path: &Path, text: &str) -> (Vec<Decl>, Vec<Import>, Diagnostics) {
    let cm: Lrc<SourceMap> = Default::default();
    let fm = cm.new_source_file(Lrc::new(FileName::Custom(path.display().to_string())), text.to_string());
    let comments = SingleThreadedComments::default();
    let mut recovered = Vec::new();
    let mut diags = Diagnostics::default();
    let base = fm.start_pos;
    let to_span =
        |s: swc_common::Span| -> Span { Span::new(s.lo.0.saturating_sub(base.0), s.hi.0.saturating_sub(base.0)) };
    let result = parse_file_as_module(
        &fm,
        Syntax::Typescript(TsSyntax::default()),
        ast::EsVersion::latest(),
        Some(&comments as &dyn Comments),
        &mut recovered,
    );
    for e in &recovered {
        diags.push(syntax_error(path, text, to_span(e.span()), &e.kind().msg()));
    }
    let mut imports = Vec::new();
    let module = match result {
        Ok(m) => m,
        Err(e) => {
            diags.push(syntax_error(path, text, to_span(e.span()), &e.kind().msg()));
            return (Vec::new(), imports, diags);
        }
    };
    let mut cx = Cx { path, base, comments: &comments, diags: &mut diags, depth: 0, declared_consts: Vec::new() };
    let mut decls = Vec::new();
    let mut exported_names: Vec<(String, Span)> = Vec::new();
    for item in &module.body {
        match item {
            ast::ModuleItem::ModuleDecl(ast::ModuleDecl::ExportDecl(export)) => {
                let doc = cx.doc_at(export.span.lo);
                cx.decl(&export.decl, export.span, doc, &mut decls);
            }
            ast::ModuleItem::Stmt(ast::Stmt::Decl(decl)) => {
                let doc = cx.doc_at(decl.span_lo());
                cx.decl(decl, decl.span(), doc, &mut decls);
            }
            // `export { A, B as C }`: the names are declared in this file anyway (every
            // declaration is read, exported or not); a rename declares an alias.
            ast::ModuleItem::ModuleDecl(ast::ModuleDecl::ExportNamed(named)) if named.src.is_none() => {
                for spec in &named.specifiers {
                    let ast::ExportSpecifier::Named(n) = spec else { continue };
                    let span = cx.span(n.span);
                    let orig = export_name(&n.orig);
                    match n.exported.as_ref().map(export_name) {
                        Some(exported) if exported != orig => {
                            let target = TypeExpr { kind: TypeKind::Ref { name: orig, args: Vec::new() }, span };
                            decls.push(Decl { name: exported, span, doc: None, kind: DeclKind::Alias(target) });
                        }
                        _ => exported_names.push((orig, span)),
                    }
                }
            }
            ast::ModuleItem::ModuleDecl(ast::ModuleDecl::Import(import)) => {
                let mut names = Vec::new();
                for spec in &import.specifiers {
                    match spec {
                        ast::ImportSpecifier::Named(n) => {
                            let local = n.local.sym.to_string();
                            let imported = n.imported.as_ref().map(export_name).unwrap_or_else(|| local.clone());
                            names.push(ImportedName { imported, local, span: cx.span(n.span) });
                        }
                        other => {
                            let span = cx.span(other.span());
                            cx.diags.push(
                                Diagnostic::error("a default or namespace import")
                                    .at(path, span)
                                    .label("not a named import")
                                    .hint("import the core types by name: `import type { Result } from \"./spec.types.js\"`"),
                            );
                        }
                    }
                }
                imports.push(Import {
                    source: import.src.value.to_string_lossy().into_owned(),
                    span: cx.span(import.span),
                    names,
                });
            }
            ast::ModuleItem::ModuleDecl(other) => {
                let span = cx.span(other.span());
                cx.diags.push(
                    Diagnostic::warning("module statement ignored")
                        .at(path, span)
                        .label("the generator reads only type, interface and const declarations")
                        .hint("imports and re-exports are not followed; declare the types in this file"),
                );
            }
            ast::ModuleItem::Stmt(other) => {
                let span = cx.span(other.span());
                cx.diags.push(Diagnostic::warning("statement ignored").at(path, span).label("not a declaration"));
            }
        }
    }
    let declared = std::mem::take(&mut cx.declared_consts);
    declared_const_values(path, declared, &mut decls, &mut diags);
    for (name, span) in exported_names {
        if !decls.iter().any(|d| d.name == name) {
            diags.push(
                Diagnostic::error(format!("`export {{ {name} }}` names a declaration this file does not have"))
                    .at(path, span)
                    .label("not declared in this file")
                    .hint("declare it here: imports are not followed"),
            );
        }
    }
    (decls, imports, diags)
}

/// Each `declare const X: T["key"];` as the const it declares: the literal
/// type of member `key` of interface `T` in this file (its own, or one it
/// extends), as a `.d.ts` writes `McpUiOpenLinkRequest["method"]` for
/// `"ui/open-link"`. One whose type names no literal is an error saying why.
fn declared_const_values(
    path: &Path,
    declared: Vec<(String, Span, Option<RawDoc>, TypeExpr)>,
    decls: &mut Vec<Decl>,
    diags: &mut Diagnostics,
) {
    fn member_literal(decls: &[Decl], ty: &str, key: &str, depth: usize) -> Option<ConstValue> {
        let decl = decls.iter().find(|d| d.name == ty)?;
        let DeclKind::Interface { extends, members } = &decl.kind else { return None };
        for m in members {
            if let crate::syntax::Member::Property { name, ty, .. } = m
                && name == key
            {
                return match &ty.kind {
                    TypeKind::StrLit(v) => Some(ConstValue::Str(v.clone())),
                    TypeKind::NumLit(n) => Some(number_const(*n)),
                    TypeKind::BoolLit(b) => Some(ConstValue::Bool(*b)),
                    _ => None,
                };
            }
        }
        if depth > 8 {
            return None;
        }
        extends.iter().find_map(|base| match &base.kind {
            TypeKind::Ref { name, args } if args.is_empty() => member_literal(decls, name, key, depth + 1),
            _ => None,
        })
    }
    for (name, span, doc, ty) in declared {
        let value = match &ty.kind {
            TypeKind::Indexed { object, index } => match (&object.kind, &index.kind) {
                (TypeKind::Ref { name: of, args }, TypeKind::StrLit(key)) if args.is_empty() => {
                    member_literal(decls, of, key, 0)
                        .ok_or_else(|| format!("`{of}[\"{key}\"]` is not a literal type of an interface of this file"))
                }
                _ => Err("only `Interface[\"member\"]` is read as a const's type".to_string()),
            },
            _ => Err("not an indexed type".to_string()),
        };
        match value {
            Ok(value) => decls.push(Decl { name, span, doc, kind: DeclKind::Const(value) }),
            Err(why) => diags.push(
                Diagnostic::error("a const without a value")
                    .at(path, ty.span)
                    .label(why)
                    .hint("declare it with a literal type (`declare const X: \"v\";`) or an interface's literal member (`T[\"method\"]`)"),
            ),
        }
    }
}

/// An intersection as the model reads it. Object literals intersected are one
/// literal with the members of each; an intersection of unions of object
/// literals (`({a} | {b}) & ({c} | {d})`, as a `.d.ts` states "either a or b,
/// and either c or d") is distributed into the union of every pairing, each one
/// literal, which the model names as it names other inline unions. The rest
/// (named bases, `Omit<…>`) stays an intersection. None: more pairings than
/// are read.
fn distribute(items: Vec<TypeExpr>, span: Span) -> Option<TypeKind> {
    /// The most pairings read: past it the intersection stays as written.
    const MAX_TERMS: usize = 16;
    let inline = |t: &TypeExpr| match &t.kind {
        TypeKind::Literal(_) => true,
        TypeKind::Union(members) => members.iter().all(|m| matches!(m.kind, TypeKind::Literal(_))),
        _ => false,
    };
    if items.len() < 2 || !items.iter().all(inline) {
        return Some(TypeKind::Intersection(items));
    }
    let mut terms: Vec<Vec<crate::syntax::Member>> = vec![Vec::new()];
    for item in &items {
        let choices: Vec<&Vec<crate::syntax::Member>> = match &item.kind {
            TypeKind::Literal(members) => vec![members],
            TypeKind::Union(options) => options
                .iter()
                .filter_map(|o| match &o.kind {
                    TypeKind::Literal(m) => Some(m),
                    _ => None,
                })
                .collect(),
            _ => unreachable!("checked above"),
        };
        if terms.len() * choices.len() > MAX_TERMS {
            return None;
        }
        terms = terms
            .iter()
            .flat_map(|t| choices.iter().map(move |c| t.iter().chain(c.iter()).cloned().collect::<Vec<_>>()))
            .collect();
    }
    let mut literals: Vec<TypeExpr> =
        terms.into_iter().map(|m| TypeExpr { kind: TypeKind::Literal(m), span }).collect();
    if literals.len() == 1 {
        return Some(literals.remove(0).kind);
    }
    Some(TypeKind::Union(literals))
}

/// The `undefined` keyword type.
fn is_undefined(t: &ast::TsType) -> bool {
    matches!(t, ast::TsType::TsKeywordType(k) if k.kind == ast::TsKeywordTypeKind::TsUndefinedKeyword)
}

fn export_name(n: &ast::ModuleExportName) -> String {
    match n {
        ast::ModuleExportName::Ident(id) => id.sym.to_string(),
        ast::ModuleExportName::Str(s) => s.value.to_string_lossy().into_owned(),
    }
}

/// swc reports an error inside an exported declaration at the keyword after
/// `export` (`interface`), not at the fault. When that happens, the file is read
/// again with that one `export` blanked out (offsets unchanged): without it swc
/// points at the real fault, which the diagnostic then shows, the keyword second.
fn syntax_error(path: &Path, text: &str, span: Span, msg: &str) -> Diagnostic {
    let lo = (span.lo as usize).min(text.len());
    let before = text[..lo].trim_end();
    if before.ends_with("export")
        && let Some((real, real_msg)) =
            first_error(&format!("{}      {}", &before[..before.len() - 6], &text[before.len()..]))
        && real.lo > span.lo
    {
        return Diagnostic::error(format!("syntax error: {real_msg}"))
            .at(path, real)
            .label(real_msg)
            .also_at(span, format!("in this declaration (swc alone reports: {msg})"));
    }
    Diagnostic::error(format!("syntax error: {msg}")).at(path, span).label(msg.to_string())
}

/// The first syntax error swc finds in `text`, as a file offset and a message.
fn first_error(text: &str) -> Option<(Span, String)> {
    let cm: Lrc<SourceMap> = Default::default();
    let fm = cm.new_source_file(Lrc::new(FileName::Anon), text.to_string());
    let mut recovered = Vec::new();
    let result = parse_file_as_module(
        &fm,
        Syntax::Typescript(TsSyntax::default()),
        ast::EsVersion::latest(),
        None,
        &mut recovered,
    );
    let base = fm.start_pos.0;
    let err = recovered.into_iter().next().or(result.err())?;
    let s = err.span();
    Some((Span::new(s.lo.0.saturating_sub(base), s.hi.0.saturating_sub(base)), err.kind().msg().to_string()))
}

struct Cx<'a> {
    path: &'a Path,
    base: BytePos,
    comments: &'a SingleThreadedComments,
    diags: &'a mut Diagnostics,
    /// How deeply the type being read is nested, to refuse absurd nesting
    /// before the later stages recurse into it.
    depth: usize,
    /// `declare const X: T["key"];`: each const's name, span, doc and type, for
    /// [`declared_const_values`] once the file is read.
    declared_consts: Vec<(String, Span, Option<RawDoc>, TypeExpr)>,
}

/// The deepest nesting of types read; the real schemas stay under 10.
const MAX_TYPE_DEPTH: usize = 64;

impl Cx<'_> {
    fn span(&self, s: swc_common::Span) -> Span {
        Span::new(s.lo.0.saturating_sub(self.base.0), s.hi.0.saturating_sub(self.base.0))
    }

    /// The documentation comment before `pos`: the last `/** */` block, or failing
    /// that the last `/* */` block (some schema items use plain blocks). Line
    /// comments such as eslint directives are skipped.
    fn doc_at(&self, pos: BytePos) -> Option<RawDoc> {
        let leading: Vec<Comment> = self.comments.get_leading(pos)?;
        let blocks: Vec<&Comment> = leading.iter().filter(|c| c.kind == CommentKind::Block).collect();
        let pick = blocks.iter().rev().find(|c| c.text.starts_with('*')).or_else(|| blocks.last())?;
        Some(RawDoc { text: pick.text.to_string(), span: self.span(pick.span) })
    }

    fn unsupported(&mut self, span: Span, what: &'static str, hint: &str) -> TypeExpr {
        self.diags.push(
            Diagnostic::error(format!("unsupported TypeScript construct: {what}"))
                .at(self.path, span)
                .label(format!("{what} is not supported"))
                .hint(hint.to_string()),
        );
        TypeExpr { kind: TypeKind::Unsupported { what }, span }
    }

    fn decl(&mut self, decl: &ast::Decl, outer: swc_common::Span, doc: Option<RawDoc>, out: &mut Vec<Decl>) {
        let span = self.span(outer);
        match decl {
            ast::Decl::TsInterface(i) => {
                if let Some(tp) = &i.type_params {
                    let s = self.span(tp.span);
                    self.unsupported(s, "a generic interface", "declare a concrete interface per use");
                    return;
                }
                let extends = i.extends.iter().map(|e| self.heritage(e)).collect();
                let members = self.members(&i.body.body);
                out.push(Decl {
                    name: i.id.sym.to_string(),
                    span,
                    doc,
                    kind: DeclKind::Interface { extends, members },
                });
            }
            ast::Decl::TsTypeAlias(a) => {
                if let Some(tp) = &a.type_params {
                    let s = self.span(tp.span);
                    self.unsupported(s, "a generic type alias", "declare a concrete type per use");
                    return;
                }
                let ty = self.ty(&a.type_ann);
                out.push(Decl { name: a.id.sym.to_string(), span, doc, kind: DeclKind::Alias(ty) });
            }
            ast::Decl::Var(v) => {
                for d in &v.decls {
                    let ast::Pat::Ident(id) = &d.name else {
                        let s = self.span(d.span);
                        self.unsupported(s, "a destructuring const", "declare one const per name");
                        continue;
                    };
                    let Some(init) = &d.init else {
                        // `declare const X: "value";`: the value is the literal type.
                        let declared = id.type_ann.as_ref().and_then(|t| match &*t.type_ann {
                            ast::TsType::TsLitType(l) => match &l.lit {
                                ast::TsLit::Str(s) => Some(ConstValue::Str(s.value.to_string_lossy().into_owned())),
                                ast::TsLit::Number(n) => Some(number_const(n.value)),
                                ast::TsLit::Bool(b) => Some(ConstValue::Bool(b.value)),
                                _ => None,
                            },
                            _ => None,
                        });
                        if let Some(value) = declared {
                            out.push(Decl {
                                name: id.id.sym.to_string(),
                                span,
                                doc: doc.clone(),
                                kind: DeclKind::Const(value),
                            });
                            continue;
                        }
                        // `declare const X: T["method"];` (a `.d.ts`): the literal T's member has,
                        // read once every declaration of the file is known.
                        if let Some(t) = &id.type_ann
                            && let ast::TsType::TsIndexedAccessType(_) = &*t.type_ann
                        {
                            let ty = self.ty(&t.type_ann);
                            self.declared_consts.push((id.id.sym.to_string(), span, doc.clone(), ty));
                            continue;
                        }
                        let s = self.span(d.span);
                        self.diags.push(
                            Diagnostic::error("a const without a value")
                                .at(self.path, s)
                                .label("expected `= value`")
                                .hint("give it a literal value, or declare it with a literal type: `declare const X: \"v\";`"),
                        );
                        continue;
                    };
                    match self.const_value(init) {
                        Some(value) => out.push(Decl {
                            name: id.id.sym.to_string(),
                            span,
                            doc: doc.clone(),
                            kind: DeclKind::Const(value),
                        }),
                        None => {
                            let s = self.span(init.span());
                            self.unsupported(
                                s,
                                "a const whose value is not a literal",
                                "use a string, number or boolean literal",
                            );
                        }
                    }
                }
            }
            ast::Decl::TsEnum(e) => {
                if let Some(ty) = self.enum_as_union(e) {
                    out.push(Decl { name: e.id.sym.to_string(), span, doc, kind: DeclKind::Alias(ty) });
                }
            }
            ast::Decl::TsModule(m) => {
                let s = self.span(m.span);
                self.diags.push(
                    Diagnostic::warning("namespace ignored")
                        .at(self.path, s)
                        .label("the declarations inside a namespace or `declare module` are not read")
                        .hint("declare the types at the top level of the file; `NS.Type` references are an error"),
                );
            }
            other => {
                let s = self.span(other.span());
                self.diags.push(
                    Diagnostic::warning("declaration ignored")
                        .at(self.path, s)
                        .label("only interfaces, type aliases and consts are read"),
                );
            }
        }
    }

    /// A TypeScript `enum` as the union of its values (`"a" | "b"`, or numbers:
    /// a member without an initializer is one more than the one before, from 0).
    fn enum_as_union(&mut self, e: &ast::TsEnumDecl) -> Option<TypeExpr> {
        let mut members = Vec::new();
        let mut next = Some(0.0);
        for m in &e.members {
            let span = self.span(m.span);
            let kind = match m.init.as_deref().map(|init| self.const_value(init)) {
                None => match next {
                    Some(n) => TypeKind::NumLit(n),
                    None => {
                        self.unsupported(
                            span,
                            "an enum member without a value after a string member",
                            "give every member of a string enum its value",
                        );
                        return None;
                    }
                },
                Some(Some(ConstValue::Str(s))) => TypeKind::StrLit(s),
                Some(Some(ConstValue::Int(i))) => TypeKind::NumLit(i as f64),
                Some(Some(ConstValue::Float(f))) => TypeKind::NumLit(f),
                Some(_) => {
                    self.unsupported(
                        span,
                        "an enum member whose value is not a literal",
                        "use a string or number literal",
                    );
                    return None;
                }
            };
            next = match &kind {
                TypeKind::NumLit(n) => Some(n + 1.0),
                _ => None,
            };
            members.push(TypeExpr { kind, span });
        }
        let span = self.span(e.span);
        if members.is_empty() {
            self.unsupported(span, "an enum without members", "give the enum at least one member");
            return None;
        }
        Some(TypeExpr { kind: TypeKind::Union(members), span })
    }

    fn const_value(&self, e: &ast::Expr) -> Option<ConstValue> {
        match e {
            ast::Expr::Lit(ast::Lit::Str(s)) => Some(ConstValue::Str(s.value.to_string_lossy().into_owned())),
            ast::Expr::Lit(ast::Lit::Num(n)) => Some(number_const(n.value)),
            ast::Expr::Lit(ast::Lit::Bool(b)) => Some(ConstValue::Bool(b.value)),
            ast::Expr::Unary(u) if u.op == ast::UnaryOp::Minus => match &*u.arg {
                ast::Expr::Lit(ast::Lit::Num(n)) => Some(number_const(-n.value)),
                _ => None,
            },
            ast::Expr::Paren(p) => self.const_value(&p.expr),
            ast::Expr::TsConstAssertion(c) => self.const_value(&c.expr),
            ast::Expr::TsAs(a) => self.const_value(&a.expr),
            _ => None,
        }
    }

    fn heritage(&mut self, e: &ast::TsExprWithTypeArgs) -> TypeExpr {
        let span = self.span(e.span);
        let name = match &*e.expr {
            ast::Expr::Ident(id) => id.sym.to_string(),
            _ => {
                return self.unsupported(
                    span,
                    "an `extends` clause that is not a plain name",
                    "extend a named interface",
                );
            }
        };
        let args = e.type_args.as_ref().map(|a| a.params.iter().map(|t| self.ty(t)).collect()).unwrap_or_default();
        TypeExpr { kind: TypeKind::Ref { name, args }, span }
    }

    fn members(&mut self, elems: &[ast::TsTypeElement]) -> Vec<Member> {
        let mut out = Vec::new();
        for el in elems {
            match el {
                ast::TsTypeElement::TsPropertySignature(p) => {
                    let span = self.span(p.span);
                    let name = match &*p.key {
                        ast::Expr::Ident(id) if !p.computed => id.sym.to_string(),
                        ast::Expr::Lit(ast::Lit::Str(s)) => s.value.to_string_lossy().into_owned(),
                        ast::Expr::Lit(ast::Lit::Num(n)) => format!("{}", n.value),
                        _ => {
                            self.unsupported(span, "a computed property key", "use a plain or quoted key");
                            continue;
                        }
                    };
                    let ty = match &p.type_ann {
                        Some(ann) => self.ty(&ann.type_ann),
                        None => {
                            self.diags.push(
                                Diagnostic::error(format!("property `{name}` has no type"))
                                    .at(self.path, span)
                                    .label("expected `: Type`"),
                            );
                            TypeExpr { kind: TypeKind::Unsupported { what: "a property without a type" }, span }
                        }
                    };
                    let doc = self.doc_at(p.span.lo);
                    // `x: T | undefined` may be left out, as `x?: T` may.
                    let may_be_undefined = p.type_ann.as_ref().is_some_and(|a| match &*a.type_ann {
                        ast::TsType::TsUnionOrIntersectionType(ast::TsUnionOrIntersectionType::TsUnionType(u)) => {
                            u.types.iter().any(|t| is_undefined(t))
                        }
                        _ => false,
                    });
                    out.push(Member::Property { name, optional: p.optional || may_be_undefined, ty, doc, span });
                }
                ast::TsTypeElement::TsIndexSignature(ix) => {
                    let span = self.span(ix.span);
                    let key_ok = ix.params.len() == 1
                        && matches!(&ix.params[0], ast::TsFnParam::Ident(b)
                            if b.type_ann.as_ref().is_some_and(|t| matches!(&*t.type_ann,
                                ast::TsType::TsKeywordType(k) if k.kind == ast::TsKeywordTypeKind::TsStringKeyword)));
                    if !key_ok {
                        self.unsupported(
                            span,
                            "an index signature whose key is not `string`",
                            "use `[key: string]: T`",
                        );
                        continue;
                    }
                    let ty = match &ix.type_ann {
                        Some(ann) => self.ty(&ann.type_ann),
                        None => TypeExpr { kind: TypeKind::Any, span },
                    };
                    out.push(Member::Index { ty, span });
                }
                other => {
                    let span = self.span(other.span());
                    self.unsupported(
                        span,
                        "a method, call or construct signature",
                        "the schema describes data: use properties",
                    );
                }
            }
        }
        out
    }

    fn ty(&mut self, t: &ast::TsType) -> TypeExpr {
        if self.depth >= MAX_TYPE_DEPTH {
            let span = self.span(t.span());
            return self.unsupported(span, "a type nested more than 64 levels deep", "name some of the inner types");
        }
        self.depth += 1;
        let ty = self.ty_inner(t);
        self.depth -= 1;
        ty
    }

    fn ty_inner(&mut self, t: &ast::TsType) -> TypeExpr {
        use ast::TsKeywordTypeKind as K;
        let span = self.span(t.span());
        let kind = match t {
            ast::TsType::TsKeywordType(k) => match k.kind {
                K::TsStringKeyword => TypeKind::String,
                K::TsNumberKeyword => TypeKind::Number,
                K::TsBooleanKeyword => TypeKind::Boolean,
                K::TsNullKeyword => TypeKind::Null,
                K::TsUnknownKeyword => TypeKind::Unknown,
                K::TsAnyKeyword => TypeKind::Any,
                K::TsObjectKeyword => TypeKind::Object,
                K::TsUndefinedKeyword => {
                    return self.unsupported(span, "`undefined`", "make the property optional with `?:`");
                }
                K::TsNeverKeyword => TypeKind::Never,
                K::TsVoidKeyword => return self.unsupported(span, "`void`", "use `{}` or remove the property"),
                K::TsBigIntKeyword => return self.unsupported(span, "`bigint`", "use `number`"),
                K::TsSymbolKeyword => return self.unsupported(span, "`symbol`", "symbols do not exist in JSON"),
                K::TsIntrinsicKeyword => return self.unsupported(span, "`intrinsic`", "use a concrete type"),
            },
            ast::TsType::TsLitType(l) => match &l.lit {
                ast::TsLit::Str(s) => TypeKind::StrLit(s.value.to_string_lossy().into_owned()),
                ast::TsLit::Number(n) => TypeKind::NumLit(n.value),
                ast::TsLit::Bool(b) => TypeKind::BoolLit(b.value),
                ast::TsLit::BigInt(_) => {
                    return self.unsupported(span, "a bigint literal type", "use a number literal");
                }
                ast::TsLit::Tpl(t) => {
                    let quasi = |q: &ast::TplElement| {
                        q.cooked.as_ref().map(|c| c.to_string_lossy().into_owned()).unwrap_or_else(|| q.raw.to_string())
                    };
                    if t.types.is_empty() {
                        TypeKind::StrLit(t.quasis.iter().map(quasi).collect())
                    } else {
                        // Kept as written, for the docs: `${string}/${string}`.
                        let mut text = String::new();
                        for (i, q) in t.quasis.iter().enumerate() {
                            text.push_str(&q.raw);
                            if let Some(ty) = t.types.get(i) {
                                text.push_str("${");
                                text.push_str(&self.type_text(ty));
                                text.push('}');
                            }
                        }
                        TypeKind::Template(text)
                    }
                }
            },
            ast::TsType::TsTypeRef(r) => {
                let name = match &r.type_name {
                    ast::TsEntityName::Ident(id) => id.sym.to_string(),
                    ast::TsEntityName::TsQualifiedName(_) => {
                        return self.unsupported(
                            span,
                            "a qualified type name (`A.B`)",
                            "declare the type at the top level and refer to it by its own name (namespaces are not read)",
                        );
                    }
                };
                let args: Vec<TypeExpr> =
                    r.type_params.as_ref().map(|a| a.params.iter().map(|t| self.ty(t)).collect()).unwrap_or_default();
                // `Record<K, V | undefined>`: every key may be left out, as in `Partial<Record<K, V>>`.
                let undefined_values = name == "Record"
                    && r.type_params.as_ref().and_then(|a| a.params.get(1)).is_some_and(|v| match &**v {
                        ast::TsType::TsUnionOrIntersectionType(ast::TsUnionOrIntersectionType::TsUnionType(u)) => {
                            u.types.iter().any(|t| is_undefined(t))
                        }
                        _ => false,
                    });
                if undefined_values {
                    let record = TypeExpr { kind: TypeKind::Ref { name, args }, span };
                    TypeKind::Ref { name: "Partial".into(), args: vec![record] }
                } else {
                    TypeKind::Ref { name, args }
                }
            }
            ast::TsType::TsTypeQuery(q) => match &q.expr_name {
                ast::TsTypeQueryExpr::TsEntityName(ast::TsEntityName::Ident(id)) if q.type_args.is_none() => {
                    TypeKind::TypeOf(id.sym.to_string())
                }
                _ => {
                    return self.unsupported(
                        span,
                        "a `typeof` of something other than a const",
                        "use `typeof CONST_NAME`",
                    );
                }
            },
            ast::TsType::TsTypeLit(l) => TypeKind::Literal(self.members(&l.members)),
            ast::TsType::TsArrayType(a) => TypeKind::Array(Box::new(self.ty(&a.elem_type))),
            ast::TsType::TsUnionOrIntersectionType(ast::TsUnionOrIntersectionType::TsUnionType(u)) => {
                // `T | undefined` is T: `undefined` never travels in JSON (a member
                // that may be undefined is optional: see `members`).
                let defined: Vec<&ast::TsType> = u.types.iter().map(|t| &**t).filter(|t| !is_undefined(t)).collect();
                match defined.as_slice() {
                    [] => return self.unsupported(span, "`undefined`", "make the property optional with `?:`"),
                    [one] => return self.ty(one),
                    _ => TypeKind::Union(defined.iter().map(|t| self.ty(t)).collect()),
                }
            }
            ast::TsType::TsUnionOrIntersectionType(ast::TsUnionOrIntersectionType::TsIntersectionType(i)) => {
                match distribute(i.types.iter().map(|t| self.ty(t)).collect(), span) {
                    Some(kind) => kind,
                    None => {
                        return self.unsupported(
                            span,
                            "an intersection of unions with more than 16 pairings",
                            "declare the object types it stands for and write their union",
                        );
                    }
                }
            }
            ast::TsType::TsParenthesizedType(p) => return self.ty(&p.type_ann),
            ast::TsType::TsTypeOperator(op) if op.op == ast::TsTypeOperatorOp::ReadOnly => {
                return self.ty(&op.type_ann);
            }
            ast::TsType::TsTupleType(_) => {
                return self.unsupported(span, "a tuple type", "use an array `T[]` or an object");
            }
            ast::TsType::TsConditionalType(_) => {
                return self.unsupported(span, "a conditional type", "write out the resulting type");
            }
            ast::TsType::TsMappedType(_) => {
                return self.unsupported(span, "a mapped type", "use `{ [key: string]: T }` or list the properties");
            }
            ast::TsType::TsIndexedAccessType(ix) => {
                TypeKind::Indexed { object: Box::new(self.ty(&ix.obj_type)), index: Box::new(self.ty(&ix.index_type)) }
            }
            ast::TsType::TsTypeOperator(op) if op.op == ast::TsTypeOperatorOp::KeyOf => {
                TypeKind::KeyOf(Box::new(self.ty(&op.type_ann)))
            }
            ast::TsType::TsTypeOperator(_) => {
                return self.unsupported(span, "a `unique` type operator", "write out the resulting type");
            }
            ast::TsType::TsFnOrConstructorType(_) => {
                return self.unsupported(span, "a function type", "functions are not JSON");
            }
            ast::TsType::TsThisType(_) => return self.unsupported(span, "`this`", "name the type"),
            ast::TsType::TsOptionalType(_) | ast::TsType::TsRestType(_) => {
                return self.unsupported(span, "an optional or rest tuple element", "use an array");
            }
            ast::TsType::TsInferType(_) => return self.unsupported(span, "`infer`", "write out the resulting type"),
            ast::TsType::TsTypePredicate(_) => return self.unsupported(span, "a type predicate", "use `boolean`"),
            ast::TsType::TsImportType(_) => {
                return self.unsupported(span, "an `import()` type", "declare the type in this file");
            }
        };
        TypeExpr { kind, span }
    }

    /// A placeholder's type in a template literal, as the docs show it.
    fn type_text(&self, t: &ast::TsType) -> String {
        use ast::TsKeywordTypeKind as K;
        match t {
            ast::TsType::TsKeywordType(k) => match k.kind {
                K::TsStringKeyword => "string".into(),
                K::TsNumberKeyword => "number".into(),
                K::TsBooleanKeyword => "boolean".into(),
                _ => "unknown".into(),
            },
            ast::TsType::TsTypeRef(r) => match &r.type_name {
                ast::TsEntityName::Ident(id) => id.sym.to_string(),
                ast::TsEntityName::TsQualifiedName(q) => q.right.sym.to_string(),
            },
            _ => "…".into(),
        }
    }
}

fn number_const(v: f64) -> ConstValue {
    whole_number(v).map_or(ConstValue::Float(v), ConstValue::Int)
}

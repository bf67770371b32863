/* parse.y: the grammar of S-Net network files (rck-snetc). */
%define api.prefix {snetc_yy}
%define parse.error detailed
%locations
%code requires {
#include "ast.h"
}
%{
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ast.h"

int snetc_yylex(void);
extern FILE *snetc_yyin;
const char *snetc_file = "";
net_t **snetc_nets;
int snetc_nnets;

#define L(yl) ((loc_t){(yl).first_line, (yl).first_column})

static void snetc_yyerror(const char *msg);

static nexp_t *nx(int kind, loc_t loc)
{
    nexp_t *e = xalloc(sizeof(*e));
    e->kind = kind;
    e->loc = loc;
    e->place = -1;
    return e;
}

static nexp_t *nx2(int kind, loc_t loc, nexp_t *a, nexp_t *b)
{
    nexp_t *e = nx(kind, loc);
    e->a = a;
    e->b = b;
    return e;
}

static expr_t *ex(int kind, int op, loc_t loc, expr_t *a, expr_t *b)
{
    expr_t *e = xalloc(sizeof(*e));
    e->kind = kind;
    e->op = op;
    e->loc = loc;
    e->a = a;
    e->b = b;
    return e;
}

#define GROW(obj, arr, x)                                                  \
    do {                                                                   \
        if ((obj)->n == (obj)->cap) {                                      \
            (obj)->cap = (obj)->cap ? 2 * (obj)->cap : 4;                  \
            (obj)->arr = xrealloc((obj)->arr,                              \
                                  (obj)->cap * sizeof(*(obj)->arr));       \
        }                                                                  \
        (obj)->arr[(obj)->n++] = (x);                                      \
    } while (0)

typedef struct {
    int nbox, nnet;
    box_t **boxes;
    net_t **nets;
} decls_t;
%}

%union {
    char *str;
    int num;
    variant_t *var;
    vtype_t *type;
    expr_t *expr;
    item_t item;
    outrec_t *rec;
    action_t *act;
    filter_t *filt;
    nexp_t *nexp;
    box_t *box;
    net_t *net;
    void *decls;
    struct { int n; sigmap_t *m; } sig;
}

%token NET BOX CONNECT IF THEN ELSE TYPEDECL ARROW DOTDOT OR2 AND2 STAR2
%token ELLIPSIS BSLASH2 SPLITPLACE SPLITPLACE2 SPLIT2 LSYNC RSYNC EQ NE LE GE GT
%token <str> IDENT
%token <num> NUM

%type <var> variant entries boxtuple boxents
%type <type> type boxouts patterns
%type <expr> expr guard_opt
%type <item> item
%type <rec> outrec items
%type <act> outrecs outrecs_opt
%type <filt> filter actions actions_opt
%type <nexp> nexp nser npost nprim sync syncpats
%type <box> boxdecl
%type <net> netdef
%type <decls> decls body_opt
%type <sig> sig_opt sigmaps

%right '?' ':'
%left OR2
%left AND2
%left EQ NE
%left '<' GT LE GE
%left '+' '-'
%left '*' '/' '%'
%precedence UNARY

%%

file: nets
    ;
nets: netdef          { snetc_nets = xrealloc(snetc_nets, (snetc_nnets + 1) * sizeof(*snetc_nets)); snetc_nets[snetc_nnets++] = $1; }
    | nets netdef     { snetc_nets = xrealloc(snetc_nets, (snetc_nnets + 1) * sizeof(*snetc_nets)); snetc_nets[snetc_nnets++] = $2; }
    | nets TYPEDECL   { error_at(L(@2), "type declarations are not supported by rck-snetc; write the types out"); YYABORT; }
    | TYPEDECL        { error_at(L(@1), "type declarations are not supported by rck-snetc; write the types out"); YYABORT; }
    ;

netdef: NET IDENT sig_opt body_opt CONNECT nexp ';' {
          net_t *n = xalloc(sizeof(*n));
          n->name = $2; n->loc = L(@2); n->nsig = $3.n; n->sig = $3.m;
          decls_t *d = $4;
          if (d) { n->nbox = d->nbox; n->boxes = d->boxes; n->nnet = d->nnet; n->nets = d->nets; free(d); }
          for (int i = 0; i < n->nnet; i++) n->nets[i]->parent = n;
          n->body = $6;
          $$ = n;
        }
      | NET IDENT sig_opt body_opt ';' {
          error_at(L(@2), "network %s has no 'connect' expression (external networks are not supported)", $2);
          YYABORT;
        }
      ;

sig_opt: %empty              { $$.n = 0; $$.m = NULL; }
       | '(' sigmaps ')'     { $$ = $2; }
       ;
sigmaps: type ARROW type     { $$.n = 1; $$.m = xalloc(sizeof(sigmap_t)); $$.m[0].in = $1; $$.m[0].out = $3; }
       | type ARROW ELLIPSIS { /* outputs not declared: inferred */
           $$.n = 1; $$.m = xalloc(sizeof(sigmap_t)); $$.m[0].in = $1; $$.m[0].out = NULL;
         }
       | sigmaps ',' type ARROW type {
           $$ = $1; $$.m = xrealloc($$.m, ($$.n + 1) * sizeof(sigmap_t));
           $$.m[$$.n].in = $3; $$.m[$$.n].out = $5; $$.n++;
         }
       ;

body_opt: %empty             { $$ = NULL; }
        | '{' decls '}'      { $$ = $2; }
        ;
decls: %empty                { $$ = xalloc(sizeof(decls_t)); }
     | decls boxdecl         { decls_t *d = $1; d->boxes = xrealloc(d->boxes, (d->nbox + 1) * sizeof(box_t *)); d->boxes[d->nbox++] = $2; $$ = d; }
     | decls netdef          { decls_t *d = $1; d->nets = xrealloc(d->nets, (d->nnet + 1) * sizeof(net_t *)); d->nets[d->nnet++] = $2; $$ = d; }
     | decls TYPEDECL        { error_at(L(@2), "type declarations are not supported by rck-snetc; write the types out"); YYABORT; }
     ;

boxdecl: BOX IDENT '(' boxtuple ARROW boxouts ')' ';' {
           box_t *b = xalloc(sizeof(*b));
           b->name = $2; b->loc = L(@2); b->in = $4; b->out = $6;
           b->init = $4->n == 0 && $4->loc.line == 0;
           $$ = b;
         }
       ;
boxtuple: '(' ')'            { $$ = variant_new(L(@1)); $$->loc.line = @1.first_line; }
        | %empty               { $$ = variant_new((loc_t){0, 0}); } /* an initialiser */
        | '(' boxents ')'    { $$ = $2; $$->loc = L(@1); }
        ;
boxents: IDENT               { $$ = variant_new(L(@1)); variant_add($$, E_FIELD, $1); }
       | '<' IDENT '>'       { $$ = variant_new(L(@1)); variant_add($$, E_TAG, $2); }
       | '<' '#' IDENT '>'   { $$ = variant_new(L(@1)); variant_add($$, E_BTAG, $3); }
       | boxents ',' IDENT   { $$ = $1; variant_add($$, E_FIELD, $3); }
       | boxents ',' '<' IDENT '>' { $$ = $1; variant_add($$, E_TAG, $4); }
       | boxents ',' '<' '#' IDENT '>' { $$ = $1; variant_add($$, E_BTAG, $5); }
       ;
boxouts: boxtuple            { $$ = vtype_new(); vtype_add($$, $1); }
       | boxouts '|' boxtuple { $$ = $1; vtype_add($$, $3); }
       ;

type: variant                { $$ = vtype_new(); vtype_add($$, $1); }
    | type '|' variant       { $$ = $1; vtype_add($$, $3); }
    ;
variant: '{' '}'             { $$ = variant_new(L(@1)); }
       | '{' entries '}'     { $$ = $2; $$->loc = L(@1); }
       ;
entries: IDENT               { $$ = variant_new(L(@1)); variant_add($$, E_FIELD, $1); }
       | '<' IDENT '>'       { $$ = variant_new(L(@1)); variant_add($$, E_TAG, $2); }
       | '<' '#' IDENT '>'   { $$ = variant_new(L(@1)); variant_add($$, E_BTAG, $3); }
       | entries ',' IDENT   { $$ = $1; variant_add($$, E_FIELD, $3); }
       | entries ',' '<' IDENT '>' { $$ = $1; variant_add($$, E_TAG, $4); }
       | entries ',' '<' '#' IDENT '>' { $$ = $1; variant_add($$, E_BTAG, $5); }
       ;

/* network expressions: postfix combinators bind tightest, then '..',
 * then '|' and '||' */
nexp: nser                   { $$ = $1; }
    | nexp '|' nser          { $$ = nx2(C_PAR, L(@2), $1, $3); }
    | nexp OR2 nser          { $$ = nx2(C_PAR, L(@2), $1, $3); $$->det = 1; }
    ;
nser: npost                  { $$ = $1; }
    | nser DOTDOT npost      { $$ = nx2(C_SERIAL, L(@2), $1, $3); }
    ;
npost: nprim                 { $$ = $1; }
     | npost '*' patterns guard_opt   { $$ = nx2(C_STAR, L(@2), $1, NULL); $$->pattern = $3; $$->guard = $4; }
     | npost STAR2 patterns guard_opt { $$ = nx2(C_STAR, L(@2), $1, NULL); $$->pattern = $3; $$->guard = $4; $$->det = 1; }
     | npost '\\' patterns guard_opt  { $$ = nx2(C_FEEDBACK, L(@2), $1, NULL); $$->pattern = $3; $$->guard = $4; }
     | npost BSLASH2 patterns guard_opt { $$ = nx2(C_FEEDBACK, L(@2), $1, NULL); $$->pattern = $3; $$->guard = $4; $$->det = 1; }
     | npost '!' '<' IDENT '>'       { $$ = nx2(C_SPLIT, L(@2), $1, NULL); $$->name = $4; }
     | npost SPLIT2 '<' IDENT '>'    { $$ = nx2(C_SPLIT, L(@2), $1, NULL); $$->name = $4; $$->det = 1; }
     | npost SPLITPLACE '<' IDENT '>'  { $$ = nx2(C_SPLIT, L(@2), $1, NULL); $$->name = $4; $$->placed_split = 1; }
     | npost SPLITPLACE2 '<' IDENT '>' { $$ = nx2(C_SPLIT, L(@2), $1, NULL); $$->name = $4; $$->placed_split = 1; $$->det = 1; }
     | npost '@' NUM                 { $$ = nx2(C_PLACE, L(@2), $1, NULL); $$->place = $3; }
     ;
patterns: variant             { $$ = vtype_new(); vtype_add($$, $1); }
        | patterns ',' variant { $$ = $1; vtype_add($$, $3); }
        ;
guard_opt: %empty                    { $$ = NULL; }
         | IF '<' expr '>'           { $$ = $3; }
         ;
nprim: IDENT                 { $$ = nx(C_REF, L(@1)); $$->name = $1; }
     | '(' nexp ')'          { $$ = $2; }
     | filter                { $$ = nx(C_FILTER, L(@1)); $$->filter = $1; }
     | sync                  { $$ = $1; }
     ;

filter: '[' ']'              { $$ = xalloc(sizeof(filter_t)); $$->identity = 1; }
      | '[' variant ARROW ']' { $$ = xalloc(sizeof(filter_t)); $$->in = $2; action_t *a = xalloc(sizeof(*a)); GROW($$, a, a); }
      | '[' variant ARROW actions ']' { $$ = $4; $$->in = $2; }
      ;
actions: outrecs             { $$ = xalloc(sizeof(filter_t)); GROW($$, a, $1); }
       | IF '<' expr '>' THEN outrecs_opt ELSE actions_opt {
           $$ = $8; $6->guard = $3;
           GROW($$, a, $6);
           /* keep the written order: the guarded action first */
           action_t *g = $$->a[$$->n - 1];
           memmove($$->a + 1, $$->a, ($$->n - 1) * sizeof(*$$->a));
           $$->a[0] = g;
         }
       ;
/* an empty action drops the record */
actions_opt: %empty          { $$ = xalloc(sizeof(filter_t)); action_t *none = xalloc(sizeof(action_t)); GROW($$, a, none); }
           | actions         { $$ = $1; }
           ;
outrecs_opt: %empty          { $$ = xalloc(sizeof(action_t)); }
           | outrecs         { $$ = $1; }
           ;
outrecs: outrec              { $$ = xalloc(sizeof(action_t)); GROW($$, r, $1); }
       | outrecs ';' outrec  { $$ = $1; GROW($$, r, $3); }
       ;
outrec: '{' '}'              { $$ = xalloc(sizeof(outrec_t)); $$->loc = L(@1); }
      | '{' items '}'        { $$ = $2; $$->loc = L(@1); }
      ;
items: item                  { $$ = xalloc(sizeof(outrec_t)); GROW($$, it, $1); }
     | items ',' item        { $$ = $1; GROW($$, it, $3); }
     ;
item: IDENT                  { $$ = (item_t){E_FIELD, $1, NULL, NULL, L(@1)}; }
    | IDENT '=' IDENT        { $$ = (item_t){E_FIELD, $1, $3, NULL, L(@1)}; }
    | '<' IDENT '>'          { $$ = (item_t){E_TAG, $2, NULL, NULL, L(@2)}; }
    | '<' IDENT '=' expr '>' { $$ = (item_t){E_TAG, $2, NULL, $4, L(@2)}; }
    | '<' '#' IDENT '>'      { $$ = (item_t){E_BTAG, $3, NULL, NULL, L(@3)}; }
    | '<' '#' IDENT '=' expr '>' { $$ = (item_t){E_BTAG, $3, NULL, $5, L(@3)}; }
    ;

sync: LSYNC syncpats RSYNC   { $$ = $2; $$->loc = L(@1); }
    ;
syncpats: variant guard_opt  {
            $$ = nx(C_SYNC, L(@1)); $$->sync = vtype_new(); vtype_add($$->sync, $1);
            $$->sync_guards = xalloc(sizeof(expr_t *)); $$->sync_guards[0] = $2;
          }
        | syncpats ',' variant guard_opt {
            $$ = $1; vtype_add($$->sync, $3);
            $$->sync_guards = xrealloc($$->sync_guards, $$->sync->n * sizeof(expr_t *));
            $$->sync_guards[$$->sync->n - 1] = $4;
          }
        ;

expr: NUM                    { $$ = ex(X_NUM, 0, L(@1), NULL, NULL); $$->val = $1; }
    | IDENT                  { $$ = ex(X_TAG, 0, L(@1), NULL, NULL); $$->name = $1; }
    | '#' IDENT              { $$ = ex(X_TAG, 0, L(@1), NULL, NULL); $$->name = $2; $$->btag = 1; }
    | '(' expr ')'           { $$ = $2; }
    | IDENT '(' expr ')'     {
        if (strcmp($1, "abs"))
            error_at(L(@1), "unknown function '%s' in a tag expression (abs, min and max are known)", $1);
        $$ = ex(X_CALL, 'a', L(@1), $3, NULL);
      }
    | IDENT '(' expr ',' expr ')' {
        if (strcmp($1, "min") && strcmp($1, "max"))
            error_at(L(@1), "unknown function '%s' in a tag expression (abs, min and max are known)", $1);
        $$ = ex(X_CALL, $1[1] == 'i' ? 'n' : 'x', L(@1), $3, $5);
      }
    | '-' expr %prec UNARY   { $$ = ex(X_UN, '-', L(@1), $2, NULL); }
    | '!' expr %prec UNARY   { $$ = ex(X_UN, '!', L(@1), $2, NULL); }
    | expr '+' expr          { $$ = ex(X_BIN, '+', L(@2), $1, $3); }
    | expr '-' expr          { $$ = ex(X_BIN, '-', L(@2), $1, $3); }
    | expr '*' expr          { $$ = ex(X_BIN, '*', L(@2), $1, $3); }
    | expr '/' expr          { $$ = ex(X_BIN, '/', L(@2), $1, $3); }
    | expr '%' expr          { $$ = ex(X_BIN, '%', L(@2), $1, $3); }
    | expr '<' expr          { $$ = ex(X_BIN, '<', L(@2), $1, $3); }
    | expr GT expr           { $$ = ex(X_BIN, '>', L(@2), $1, $3); }
    | expr LE expr           { $$ = ex(X_BIN, LE, L(@2), $1, $3); }
    | expr GE expr           { $$ = ex(X_BIN, GE, L(@2), $1, $3); }
    | expr EQ expr           { $$ = ex(X_BIN, EQ, L(@2), $1, $3); }
    | expr NE expr           { $$ = ex(X_BIN, NE, L(@2), $1, $3); }
    | expr AND2 expr         { $$ = ex(X_BIN, AND2, L(@2), $1, $3); }
    | expr OR2 expr          { $$ = ex(X_BIN, OR2, L(@2), $1, $3); }
    | expr '?' expr ':' expr { $$ = ex(X_COND, '?', L(@2), $1, $3); $$->c = $5; }
    ;
%%

static void snetc_yyerror(const char *msg)
{
    error_at(L(snetc_yylloc), "%s", msg);
}

int snetc_parse_file(const char *path)
{
    extern int snetc_line, snetc_col;
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        fprintf(stderr, "rck-snetc: cannot open %s\n", path);
        return -1;
    }
    snetc_file = path;
    snetc_line = snetc_col = 1;
    snetc_yyin = f;
    int rc = snetc_yyparse();
    fclose(f);
    return rc != 0 || snetc_errors ? -1 : 0;
}

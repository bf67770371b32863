/* The MPI-2.2/3.x calls of src/rckmpi/mpi3.c (issue 27), each checked
 * against values computed here from the C layout, and the error class
 * each returns for bad input (MPI_ERRORS_RETURN): address arithmetic, the
 * MPI_Count forms, MPI_Type_create_hindexed_block (a round trip through
 * the ranks), communicator and window hints, datatype names, the
 * program's own error classes/codes/strings, MPI_Type_match_size. */
#include "mpitest.h"

#include <stdint.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static int errclass(int err)
{
    int c = -1;
    MPI_Error_class(err, &c);
    return c;
}

static void address_arith(void)
{
    double a[10] = {0};
    MPI_Aint p0, p7;

    MPI_Get_address(&a[0], &p0);
    MPI_Get_address(&a[7], &p7);
    CHECK(MPI_Aint_diff(p7, p0) == (MPI_Aint)(7 * sizeof(double)),
          "Aint_diff %ld", (long)MPI_Aint_diff(p7, p0));
    CHECK(MPI_Aint_add(p0, (MPI_Aint)(7 * sizeof(double))) == p7,
          "Aint_add");
    CHECK((void *)MPI_Aint_add(p0, 3 * (MPI_Aint)sizeof(double)) == &a[3],
          "Aint_add to a pointer");
}

static void count_forms(void)
{
    MPI_Datatype v, r;
    MPI_Count sz, lb, ext;
    MPI_Status st;
    int n;

    /* 3 blocks of 2 ints, stride 5 ints: 24 bytes over 12 ints */
    MPI_Type_vector(3, 2, 5, MPI_INT, &v);
    MPI_Type_commit(&v);
    CHECK(MPI_Type_size_x(v, &sz) == MPI_SUCCESS &&
              sz == (MPI_Count)(6 * sizeof(int)),
          "Type_size_x %lld", (long long)sz);
    CHECK(MPI_Type_get_extent_x(v, &lb, &ext) == MPI_SUCCESS && lb == 0 &&
              ext == (MPI_Count)(12 * sizeof(int)),
          "Type_get_extent_x %lld %lld", (long long)lb, (long long)ext);
    /* resized: lb -8, extent 100; the data stays where it was */
    MPI_Type_create_resized(v, -8, 100, &r);
    CHECK(MPI_Type_get_extent_x(r, &lb, &ext) == MPI_SUCCESS && lb == -8 &&
              ext == 100,
          "resized extent_x %lld %lld", (long long)lb, (long long)ext);
    CHECK(MPI_Type_get_true_extent_x(r, &lb, &ext) == MPI_SUCCESS &&
              lb == 0 && ext == (MPI_Count)(12 * sizeof(int)),
          "true_extent_x %lld %lld", (long long)lb, (long long)ext);
    MPI_Type_free(&r);

    /* Status_set_elements: 7 ints of v = one item (6) and one more */
    CHECK(MPI_Status_set_elements(&st, v, 7) == MPI_SUCCESS,
          "Status_set_elements");
    CHECK(MPI_Get_elements_x(&st, v, &sz) == MPI_SUCCESS && sz == 7,
          "Get_elements_x %lld", (long long)sz);
    MPI_Get_elements(&st, MPI_INT, &n);
    CHECK(n == 7, "Get_elements(MPI_INT) %d", n);
    MPI_Get_count(&st, v, &n);
    CHECK(n == MPI_UNDEFINED, "Get_count of a partial item %d", n);
    CHECK(MPI_Status_set_elements_x(&st, v, 12) == MPI_SUCCESS,
          "Status_set_elements_x");
    MPI_Get_count(&st, v, &n);
    CHECK(n == 2, "Get_count of 12 elements %d", n);
    CHECK(MPI_Status_set_elements_x(&st, MPI_DOUBLE, 5) == MPI_SUCCESS,
          "set_elements_x double");
    MPI_Get_count(&st, MPI_BYTE, &n);
    CHECK(n == (int)(5 * sizeof(double)), "bytes of 5 doubles %d", n);

    /* bad input */
    CHECK(errclass(MPI_Type_size_x(MPI_DATATYPE_NULL, &sz)) == MPI_ERR_TYPE,
          "size_x of MPI_DATATYPE_NULL");
    CHECK(errclass(MPI_Status_set_elements_x(&st, v, -1)) == MPI_ERR_COUNT,
          "negative count");
    CHECK(errclass(MPI_Get_elements_x(MPI_STATUS_IGNORE, v, &sz)) ==
              MPI_ERR_ARG,
          "Get_elements_x of MPI_STATUS_IGNORE");
    MPI_Type_free(&v);
}

/* hindexed_block against hindexed with equal lengths, by a round trip */
static void hindexed_block(int rank, int size)
{
    MPI_Aint d[3] = {5 * sizeof(double), 0, 9 * sizeof(double)};
    MPI_Datatype hb, ref;
    MPI_Aint lb, ext;
    int bl[3] = {2, 2, 2}, sz, peer = (rank + 1) % size,
        from = (rank + size - 1) % size;
    double src[12], got[12], want[12];
    char p1[256], p2[256];
    int pos1 = 0, pos2 = 0;

    CHECK(MPI_Type_create_hindexed_block(3, 2, d, MPI_DOUBLE, &hb) ==
              MPI_SUCCESS,
          "hindexed_block");
    MPI_Type_create_hindexed(3, bl, d, MPI_DOUBLE, &ref);
    MPI_Type_commit(&hb);
    MPI_Type_commit(&ref);
    MPI_Type_size(hb, &sz);
    CHECK(sz == (int)(6 * sizeof(double)), "hindexed_block size %d", sz);
    MPI_Type_get_extent(hb, &lb, &ext);
    CHECK(lb == 0 && ext == (MPI_Aint)(11 * sizeof(double)),
          "hindexed_block extent %ld %ld", (long)lb, (long)ext);
    for (int i = 0; i < 12; i++)
        src[i] = 100 * rank + i;
    MPI_Pack(src, 1, hb, p1, sizeof p1, &pos1, MPI_COMM_WORLD);
    MPI_Pack(src, 1, ref, p2, sizeof p2, &pos2, MPI_COMM_WORLD);
    CHECK(pos1 == pos2 && memcmp(p1, p2, (size_t)pos1) == 0,
          "hindexed_block packs as hindexed");
    /* the order of the blocks: 5,6 then 0,1 then 9,10 */
    CHECK(((double *)p1)[0] == src[5] && ((double *)p1)[2] == src[0] &&
              ((double *)p1)[5] == src[10],
          "packed order");
    for (int i = 0; i < 12; i++)
        got[i] = want[i] = -1;
    for (int b = 0; b < 3; b++)
        for (int k = 0; k < 2; k++) {
            int at = (int)(d[b] / (MPI_Aint)sizeof(double)) + k;
            want[at] = 100 * from + at;
        }
    MPI_Sendrecv(src, 1, hb, peer, 7, got, 1, hb, from, 7, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    CHECK(memcmp(got, want, sizeof got) == 0, "hindexed_block round trip");
    CHECK(errclass(MPI_Type_create_hindexed_block(2, -1, d, MPI_DOUBLE,
                                                  &ref)) == MPI_ERR_ARG,
          "negative block length");
    CHECK(errclass(MPI_Type_create_hindexed_block(-1, 1, d, MPI_DOUBLE,
                                                  &ref)) == MPI_ERR_COUNT,
          "negative count");
    MPI_Type_free(&hb);
    MPI_Type_free(&ref);
}

static int info_value(MPI_Info info, const char *key, char *val)
{
    int flag = 0;
    MPI_Info_get(info, key, 63, val, &flag);
    return flag;
}

static void comm_hints(void)
{
    MPI_Comm c, d, e;
    MPI_Info in, out;
    char val[64];
    int nkeys = -1;

    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    CHECK(MPI_Comm_get_info(c, &out) == MPI_SUCCESS, "Comm_get_info");
    MPI_Info_get_nkeys(out, &nkeys);
    CHECK(nkeys == 0, "a new communicator has %d hints", nkeys);
    MPI_Info_free(&out);

    MPI_Info_create(&in);
    MPI_Info_set(in, "rck_hint", "one");
    CHECK(MPI_Comm_set_info(c, in) == MPI_SUCCESS, "Comm_set_info");
    /* the communicator keeps a copy: changing ours changes nothing */
    MPI_Info_set(in, "rck_hint", "changed");
    MPI_Comm_get_info(c, &out);
    CHECK(info_value(out, "rck_hint", val) && strcmp(val, "one") == 0,
          "Comm_get_info: %s", val);
    /* ... and gives a copy */
    MPI_Info_set(out, "rck_hint", "mine");
    MPI_Info_free(&out);
    MPI_Comm_get_info(c, &out);
    CHECK(info_value(out, "rck_hint", val) && strcmp(val, "one") == 0,
          "get_info gives a copy: %s", val);
    MPI_Info_free(&out);

    /* MPI_Comm_dup copies the hints, dup_with_info replaces them */
    MPI_Comm_dup(c, &d);
    MPI_Comm_get_info(d, &out);
    CHECK(info_value(out, "rck_hint", val) && strcmp(val, "one") == 0,
          "Comm_dup's hints: %s", val);
    MPI_Info_free(&out);
    CHECK(MPI_Comm_dup_with_info(c, in, &e) == MPI_SUCCESS,
          "Comm_dup_with_info");
    MPI_Comm_get_info(e, &out);
    CHECK(info_value(out, "rck_hint", val) && strcmp(val, "changed") == 0,
          "dup_with_info's hints: %s", val);
    MPI_Info_free(&out);
    {
        /* the new communicator works */
        int r, s, sum = 0, rank, size;
        MPI_Comm_rank(e, &rank);
        MPI_Comm_size(e, &size);
        MPI_Sendrecv(&rank, 1, MPI_INT, (rank + 1) % size, 3, &r, 1, MPI_INT,
                     (rank + size - 1) % size, 3, e, MPI_STATUS_IGNORE);
        CHECK(r == (rank + size - 1) % size, "traffic on the dup: %d", r);
        MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, e);
        s = size * (size - 1) / 2;
        CHECK(sum == s, "allreduce on the dup %d != %d", sum, s);
    }
    CHECK(MPI_Comm_set_info(e, MPI_INFO_NULL) == MPI_SUCCESS,
          "set_info(MPI_INFO_NULL): no hints");
    MPI_Comm_get_info(e, &out);
    MPI_Info_get_nkeys(out, &nkeys);
    CHECK(nkeys == 0, "hints after MPI_INFO_NULL: %d", nkeys);
    MPI_Info_free(&out);

    CHECK(errclass(MPI_Comm_set_info(MPI_COMM_NULL, in)) == MPI_ERR_COMM,
          "set_info on MPI_COMM_NULL");
    CHECK(errclass(MPI_Comm_get_info(MPI_COMM_NULL, &out)) == MPI_ERR_COMM,
          "get_info on MPI_COMM_NULL");
    CHECK(errclass(MPI_Comm_set_info(c, (MPI_Info)12345)) == MPI_ERR_INFO,
          "set_info of a bad info");
    CHECK(errclass(MPI_Comm_dup_with_info(c, (MPI_Info)12345, &d)) ==
              MPI_ERR_INFO,
          "dup_with_info of a bad info");
    MPI_Info_free(&in);
    MPI_Comm_free(&c);
    MPI_Comm_free(&d);
    MPI_Comm_free(&e);
}

static void win_hints(void)
{
    int buf[4];
    MPI_Win w;
    MPI_Info in, out;
    char val[64];
    int nkeys = -1;

    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &w);
    MPI_Win_get_info(w, &out);
    MPI_Info_get_nkeys(out, &nkeys);
    CHECK(nkeys == 0, "a new window has %d hints", nkeys);
    MPI_Info_free(&out);
    MPI_Info_create(&in);
    MPI_Info_set(in, "no_locks", "true");
    CHECK(MPI_Win_set_info(w, in) == MPI_SUCCESS, "Win_set_info");
    MPI_Info_free(&in);
    CHECK(MPI_Win_get_info(w, &out) == MPI_SUCCESS, "Win_get_info");
    CHECK(info_value(out, "no_locks", val) && strcmp(val, "true") == 0,
          "Win_get_info: %s", val);
    MPI_Info_free(&out);
    CHECK(errclass(MPI_Win_get_info(MPI_WIN_NULL, &out)) == MPI_ERR_WIN,
          "Win_get_info of MPI_WIN_NULL");
    MPI_Win_free(&w);
}

static void type_names(void)
{
    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    MPI_Datatype t;

    CHECK(MPI_Type_get_name(MPI_DOUBLE, name, &len) == MPI_SUCCESS &&
              strcmp(name, "MPI_DOUBLE") == 0 && len == 10,
          "name of MPI_DOUBLE: %s %d", name, len);
    MPI_Type_get_name(MPI_2INT, name, &len);
    CHECK(strcmp(name, "MPI_2INT") == 0, "name of MPI_2INT: %s", name);
    MPI_Type_contiguous(3, MPI_INT, &t);
    MPI_Type_get_name(t, name, &len);
    CHECK(len == 0 && name[0] == '\0', "a new type's name: '%s'", name);
    CHECK(MPI_Type_set_name(t, "triple") == MPI_SUCCESS, "Type_set_name");
    MPI_Type_get_name(t, name, &len);
    CHECK(strcmp(name, "triple") == 0 && len == 6, "set name: %s", name);
    MPI_Type_free(&t);
    CHECK(errclass(MPI_Type_set_name(MPI_DATATYPE_NULL, "x")) == MPI_ERR_TYPE,
          "set_name of MPI_DATATYPE_NULL");
    CHECK(errclass(MPI_Type_get_name(t, name, &len)) == MPI_ERR_TYPE,
          "get_name of a freed type");
}

static void user_errors(void)
{
    int cls, code, code2, c, len, *last, flag = 0;
    char s[MPI_MAX_ERROR_STRING];

    CHECK(MPI_Add_error_class(&cls) == MPI_SUCCESS && cls > MPI_ERR_LASTCODE,
          "Add_error_class: %d", cls);
    CHECK(MPI_Add_error_code(cls, &code) == MPI_SUCCESS && code > cls,
          "Add_error_code: %d", code);
    CHECK(MPI_Add_error_code(MPI_ERR_OTHER, &code2) == MPI_SUCCESS &&
              code2 > code,
          "Add_error_code in a predefined class: %d", code2);
    CHECK(MPI_Error_class(code, &c) == MPI_SUCCESS && c == cls,
          "class of the new code %d", c);
    CHECK(MPI_Error_class(cls, &c) == MPI_SUCCESS && c == cls,
          "a class is its own class %d", c);
    CHECK(MPI_Error_class(code2, &c) == MPI_SUCCESS && c == MPI_ERR_OTHER,
          "class of code2 %d", c);
    MPI_Error_string(code, s, &len);
    CHECK(len == 0, "no string yet: '%s'", s);
    CHECK(MPI_Add_error_string(code, "the rckmpi test's own error") ==
              MPI_SUCCESS,
          "Add_error_string");
    MPI_Error_string(code, s, &len);
    CHECK(strcmp(s, "the rckmpi test's own error") == 0 &&
              len == (int)strlen(s),
          "Error_string of the new code: %s", s);
    CHECK(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last,
                            &flag) == MPI_SUCCESS &&
              flag && *last == code2,
          "MPI_LASTUSEDCODE %d", flag ? *last : -1);
    /* bad input */
    CHECK(errclass(MPI_Add_error_string(MPI_ERR_ARG, "x")) == MPI_ERR_ARG,
          "a string for a predefined code");
    CHECK(errclass(MPI_Add_error_code(code, &c)) == MPI_ERR_ARG,
          "a code in a class that is a code");
    CHECK(errclass(MPI_Add_error_code(code2 + 1000, &c)) == MPI_ERR_ARG,
          "a code in no class");
    CHECK(errclass(MPI_Error_class(code2 + 1, &c)) == MPI_ERR_ARG,
          "class of an unused code");
}

/* ---- attributes on datatypes and windows ---- */
static int n_copy, n_del, last_del_val;

static int tcopy(MPI_Datatype t, int key, void *extra, void *in, void *out,
                 int *flag)
{
    (void)t;
    (void)key;
    n_copy++;
    /* the copy's value: the old one plus the extra state's */
    *(MPI_Aint *)out = (MPI_Aint)in + *(int *)extra;
    *flag = 1;
    return MPI_SUCCESS;
}

static int tdel(MPI_Datatype t, int key, void *val, void *extra)
{
    (void)t;
    (void)key;
    (void)extra;
    n_del++;
    last_del_val = (int)(MPI_Aint)val;
    return MPI_SUCCESS;
}

static int wdel(MPI_Win w, int key, void *val, void *extra)
{
    (void)w;
    (void)key;
    (void)extra;
    n_del++;
    last_del_val = (int)(MPI_Aint)val;
    return MPI_SUCCESS;
}

static void type_attrs(void)
{
    int extra = 5, key, key2, ckey, flag = -1;
    MPI_Datatype t, d, e;
    void *v;

    CHECK(MPI_Type_create_keyval(tcopy, tdel, &key, &extra) == MPI_SUCCESS,
          "Type_create_keyval");
    MPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &key2,
                           NULL);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN,
                           &ckey, NULL);
    MPI_Type_contiguous(2, MPI_INT, &t);
    CHECK(MPI_Type_get_attr(t, key, &v, &flag) == MPI_SUCCESS && flag == 0,
          "no attribute yet: flag %d", flag);
    CHECK(MPI_Type_set_attr(t, key, (void *)(MPI_Aint)10) == MPI_SUCCESS,
          "Type_set_attr");
    MPI_Type_set_attr(t, key2, (void *)(MPI_Aint)77);
    CHECK(MPI_Type_get_attr(t, key, &v, &flag) == MPI_SUCCESS && flag == 1 &&
              (MPI_Aint)v == 10,
          "Type_get_attr %d %ld", flag, (long)(MPI_Aint)v);
    /* replacing a value runs the delete callback on the old one */
    n_del = 0;
    MPI_Type_set_attr(t, key, (void *)(MPI_Aint)11);
    CHECK(n_del == 1 && last_del_val == 10, "replace: %d deletes, value %d",
          n_del, last_del_val);
    /* MPI_Type_dup runs the copy callbacks */
    n_copy = 0;
    MPI_Type_dup(t, &d);
    CHECK(n_copy == 1, "dup: %d copies", n_copy);
    MPI_Type_get_attr(d, key, &v, &flag);
    CHECK(flag && (MPI_Aint)v == 16, "dup's value %ld", (long)(MPI_Aint)v);
    MPI_Type_get_attr(d, key2, &v, &flag);
    CHECK(flag && (MPI_Aint)v == 77, "MPI_TYPE_DUP_FN's value %ld",
          (long)(MPI_Aint)v);
    /* MPI_Type_free runs the delete callbacks */
    n_del = 0;
    MPI_Type_free(&d);
    CHECK(n_del == 1 && last_del_val == 16, "free: %d deletes, value %d",
          n_del, last_del_val);
    n_del = 0;
    CHECK(MPI_Type_delete_attr(t, key) == MPI_SUCCESS && n_del == 1,
          "Type_delete_attr: %d deletes", n_del);
    MPI_Type_get_attr(t, key, &v, &flag);
    CHECK(flag == 0, "deleted attribute still there");
    /* on a predefined type too */
    CHECK(MPI_Type_set_attr(MPI_INT, key2, (void *)(MPI_Aint)3) ==
              MPI_SUCCESS,
          "set_attr on MPI_INT");
    MPI_Type_get_attr(MPI_INT, key2, &v, &flag);
    CHECK(flag && (MPI_Aint)v == 3, "MPI_INT's attribute");
    MPI_Type_delete_attr(MPI_INT, key2);
    /* bad input: a keyval of another kind, a deleted attribute, a bad
     * type, a freed keyval */
    CHECK(errclass(MPI_Type_set_attr(t, ckey, NULL)) == MPI_ERR_KEYVAL,
          "a communicator keyval on a type");
    CHECK(errclass(MPI_Comm_set_attr(MPI_COMM_WORLD, key, NULL)) ==
              MPI_ERR_KEYVAL,
          "a type keyval on a communicator");
    CHECK(errclass(MPI_Type_delete_attr(t, key)) == MPI_ERR_KEYVAL,
          "deleting an absent attribute");
    CHECK(errclass(MPI_Type_get_attr(MPI_DATATYPE_NULL, key, &v, &flag)) ==
              MPI_ERR_TYPE,
          "get_attr of MPI_DATATYPE_NULL");
    e = t;
    MPI_Type_free(&t);
    CHECK(errclass(MPI_Type_set_attr(e, key, NULL)) == MPI_ERR_TYPE,
          "set_attr on a freed type");
    CHECK(MPI_Type_free_keyval(&key) == MPI_SUCCESS &&
              key == MPI_KEYVAL_INVALID,
          "Type_free_keyval");
    CHECK(errclass(MPI_Type_free_keyval(&ckey)) == MPI_ERR_KEYVAL,
          "Type_free_keyval of a communicator keyval");
    MPI_Type_free_keyval(&key2);
    MPI_Comm_free_keyval(&ckey);
}

static MPI_Win eh_win = MPI_WIN_NULL;
static MPI_File eh_file = (MPI_File)-7;
static int eh_code, eh_calls;

static void win_eh(MPI_Win *w, int *code, ...)
{
    eh_win = *w;
    eh_code = *code;
    eh_calls++;
}

static void file_eh(MPI_File *f, int *code, ...)
{
    eh_file = *f;
    eh_code = *code;
    eh_calls++;
}

static void comm_eh(MPI_Comm *c, int *code, ...)
{
    (void)c;
    (void)code;
    eh_calls++;
}

static void win_attrs_and_handlers(void)
{
    int buf[4], key, flag = -1, *unit;
    void *v;
    MPI_Win w, w0;
    MPI_Errhandler weh, feh, ceh, got;

    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &w);
    MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN);
    CHECK(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, wdel, &key, NULL) ==
              MPI_SUCCESS,
          "Win_create_keyval");
    CHECK(MPI_Win_set_attr(w, key, (void *)(MPI_Aint)42) == MPI_SUCCESS,
          "Win_set_attr");
    CHECK(MPI_Win_get_attr(w, key, &v, &flag) == MPI_SUCCESS && flag &&
              (MPI_Aint)v == 42,
          "Win_get_attr %d", flag);
    /* the predefined ones still answer */
    MPI_Win_get_attr(w, MPI_WIN_DISP_UNIT, &unit, &flag);
    CHECK(flag && *unit == (int)sizeof(int), "MPI_WIN_DISP_UNIT");
    CHECK(errclass(MPI_Win_set_attr(w, MPI_WIN_BASE, NULL)) == MPI_ERR_KEYVAL,
          "setting MPI_WIN_BASE");
    n_del = 0;
    CHECK(MPI_Win_delete_attr(w, key) == MPI_SUCCESS && n_del == 1 &&
              last_del_val == 42,
          "Win_delete_attr: %d", n_del);
    MPI_Win_get_attr(w, key, &v, &flag);
    CHECK(flag == 0, "deleted window attribute");
    CHECK(errclass(MPI_Win_delete_attr(w, key)) == MPI_ERR_KEYVAL,
          "deleting an absent window attribute");
    MPI_Win_set_attr(w, key, (void *)(MPI_Aint)43);

    /* error handlers of windows */
    CHECK(MPI_Win_create_errhandler(win_eh, &weh) == MPI_SUCCESS,
          "Win_create_errhandler");
    MPI_Comm_create_errhandler(comm_eh, &ceh);
    CHECK(errclass(MPI_Win_set_errhandler(w, ceh)) == MPI_ERR_ARG,
          "a communicator's handler on a window");
    CHECK(errclass(MPI_Comm_set_errhandler(MPI_COMM_WORLD, weh)) ==
              MPI_ERR_ARG,
          "a window's handler on a communicator");
    CHECK(MPI_Win_set_errhandler(w, weh) == MPI_SUCCESS,
          "Win_set_errhandler");
    MPI_Win_get_errhandler(w, &got);
    CHECK(got == weh, "Win_get_errhandler %d", got);
    eh_calls = 0;
    MPI_Win_call_errhandler(w, MPI_ERR_RMA_SYNC);
    CHECK(eh_calls == 1 && eh_win == w && eh_code == MPI_ERR_RMA_SYNC,
          "the window's handler: %d calls, window %d, code %d", eh_calls,
          eh_win, eh_code);
    /* an error of a call on the window reaches it too */
    eh_calls = 0;
    MPI_Win_set_attr(w, 999999, NULL);
    CHECK(eh_calls == 1 && eh_win == w && eh_code == MPI_ERR_KEYVAL,
          "a bad keyval: %d calls, code %d", eh_calls, eh_code);
    MPI_Win_set_errhandler(w, MPI_ERRORS_RETURN);

    /* MPI_Win_free runs the delete callbacks */
    n_del = 0;
    w0 = w;
    MPI_Win_free(&w);
    CHECK(n_del == 1 && last_del_val == 43, "Win_free: %d deletes", n_del);
    CHECK(errclass(MPI_Win_set_attr(w0, key, NULL)) == MPI_ERR_WIN,
          "set_attr on a freed window");
    CHECK(MPI_Win_free_keyval(&key) == MPI_SUCCESS, "Win_free_keyval");

    /* error handlers of files: MPI_FILE_NULL's */
    CHECK(MPI_File_create_errhandler(file_eh, &feh) == MPI_SUCCESS,
          "File_create_errhandler");
    CHECK(errclass(MPI_File_set_errhandler(MPI_FILE_NULL, weh)) ==
              MPI_ERR_ARG,
          "a window's handler on a file");
    CHECK(MPI_File_set_errhandler(MPI_FILE_NULL, feh) == MPI_SUCCESS,
          "File_set_errhandler");
    MPI_File_get_errhandler(MPI_FILE_NULL, &got);
    CHECK(got == feh, "File_get_errhandler %d", got);
    eh_calls = 0;
    MPI_File_call_errhandler(MPI_FILE_NULL, MPI_ERR_FILE);
    CHECK(eh_calls == 1 && eh_file == MPI_FILE_NULL && eh_code == MPI_ERR_FILE,
          "the file handler: %d calls, file %d, code %d", eh_calls,
          (int)eh_file, eh_code);
    MPI_File_set_errhandler(MPI_FILE_NULL, MPI_ERRORS_RETURN);
    CHECK(errclass(MPI_Win_create_errhandler(NULL, &got)) == MPI_ERR_ARG,
          "a NULL function");
    MPI_Errhandler_free(&weh);
    MPI_Errhandler_free(&feh);
    MPI_Errhandler_free(&ceh);
}

/* ---- generalized requests ---- */
typedef struct {
    int queries, frees, cancels, cancel_complete, fail;
} gstate_t;

static int gquery(void *extra, MPI_Status *st)
{
    gstate_t *g = extra;
    g->queries++;
    st->MPI_SOURCE = 3;
    st->MPI_TAG = 9;
    MPI_Status_set_elements(st, MPI_INT, 4);
    MPI_Status_set_cancelled(st, g->cancels > 0);
    return g->fail ? MPI_ERR_OTHER : MPI_SUCCESS;
}

static int gfree(void *extra)
{
    ((gstate_t *)extra)->frees++;
    return MPI_SUCCESS;
}

static int gcancel(void *extra, int complete)
{
    gstate_t *g = extra;
    g->cancels++;
    g->cancel_complete = complete;
    return MPI_SUCCESS;
}

static void grequests(void)
{
    gstate_t g = {0};
    MPI_Request r, r2;
    MPI_Status st;
    int flag = -1, n = -1;

    CHECK(MPI_Grequest_start(gquery, gfree, gcancel, &g, &r) == MPI_SUCCESS,
          "Grequest_start");
    MPI_Test(&r, &flag, &st);
    CHECK(flag == 0 && r != MPI_REQUEST_NULL, "done before complete");
    CHECK(MPI_Grequest_complete(r) == MPI_SUCCESS, "Grequest_complete");
    CHECK(errclass(MPI_Grequest_complete(r)) == MPI_ERR_REQUEST,
          "completed twice");
    CHECK(MPI_Wait(&r, &st) == MPI_SUCCESS, "Wait");
    CHECK(r == MPI_REQUEST_NULL, "request not released");
    CHECK(st.MPI_SOURCE == 3 && st.MPI_TAG == 9, "status %d %d",
          st.MPI_SOURCE, st.MPI_TAG);
    MPI_Get_count(&st, MPI_INT, &n);
    CHECK(n == 4, "count from the query %d", n);
    MPI_Test_cancelled(&st, &flag);
    CHECK(flag == 0, "not cancelled");
    CHECK(g.queries >= 1 && g.frees == 1, "queries %d frees %d", g.queries,
          g.frees);

    /* cancelled before completion: the cancel function sees complete 0 */
    memset(&g, 0, sizeof g);
    MPI_Grequest_start(gquery, gfree, gcancel, &g, &r);
    CHECK(MPI_Cancel(&r) == MPI_SUCCESS && g.cancels == 1 &&
              g.cancel_complete == 0,
          "Cancel: %d calls, complete %d", g.cancels, g.cancel_complete);
    MPI_Grequest_complete(r);
    MPI_Wait(&r, &st);
    MPI_Test_cancelled(&st, &flag);
    CHECK(flag == 1, "cancelled by the query");

    /* the query's error is the request's */
    memset(&g, 0, sizeof g);
    g.fail = 1;
    MPI_Grequest_start(gquery, gfree, NULL, &g, &r);
    MPI_Grequest_complete(r);
    CHECK(errclass(MPI_Wait(&r, &st)) == MPI_ERR_OTHER,
          "the query's error");
    CHECK(g.frees == 1, "freed after an error: %d", g.frees);

    /* MPI_Request_free first: freed once it completes */
    memset(&g, 0, sizeof g);
    MPI_Grequest_start(gquery, gfree, NULL, &g, &r);
    r2 = r;
    MPI_Request_free(&r);
    CHECK(g.frees == 0, "freed before completion");
    MPI_Grequest_complete(r2);
    CHECK(g.frees == 1, "Request_free'd request after complete: %d frees",
          g.frees);

    /* bad input */
    MPI_Irecv(&n, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &r);
    CHECK(errclass(MPI_Grequest_complete(r)) == MPI_ERR_REQUEST,
          "complete of a receive");
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    CHECK(errclass(MPI_Grequest_complete(MPI_REQUEST_NULL)) ==
              MPI_ERR_REQUEST,
          "complete of MPI_REQUEST_NULL");
    CHECK(errclass(MPI_Grequest_start(gquery, gfree, NULL, &g, NULL)) ==
              MPI_ERR_ARG,
          "NULL request");
}

/* ---- external32 ---- */
typedef struct {
    short s;
    int i;
    double d;
} ext_rec_t;

static void external32(void)
{
    static const unsigned char want[] = {
        0x0A, 0x0B,                                     /* short */
        0x01, 0x02, 0x03, 0x04,                         /* int */
        0x3F, 0xF8, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* 1.5 */
        0xFF, 0xFE,                                     /* short -2 */
        0xFF, 0xFF, 0xFF, 0xF9,                         /* int -7 */
        0xC0, 0x24, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* -10.0 */
    };
    static const unsigned char lwant[] = {0xFF, 0xFF, 0xFF, 0xFE,
                                          0x00, 0x01, 0x11, 0x70};
    ext_rec_t in[2] = {{0x0A0B, 0x01020304, 1.5}, {-2, -7, -10.0}}, out[2];
    int bl[3] = {1, 1, 1};
    MPI_Aint d[3] = {offsetof(ext_rec_t, s), offsetof(ext_rec_t, i),
                     offsetof(ext_rec_t, d)};
    MPI_Datatype ty[3] = {MPI_SHORT, MPI_INT, MPI_DOUBLE}, t, r;
    unsigned char buf[64];
    MPI_Aint pos = 0, sz = 0;
    long l[2] = {-2, 70000}, l2[2] = {0, 0}, big = 1;
    wchar_t wc = 0;

    MPI_Type_create_struct(3, bl, d, ty, &t);
    MPI_Type_create_resized(t, 0, sizeof(ext_rec_t), &r);
    MPI_Type_free(&t);
    MPI_Type_commit(&r);
    CHECK(MPI_Pack_external_size("external32", 2, r, &sz) == MPI_SUCCESS &&
              sz == (MPI_Aint)sizeof want,
          "Pack_external_size %ld", (long)sz);
    memset(buf, 0x55, sizeof buf);
    CHECK(MPI_Pack_external("external32", in, 2, r, buf, sizeof buf, &pos) ==
              MPI_SUCCESS &&
              pos == (MPI_Aint)sizeof want,
          "Pack_external: position %ld", (long)pos);
    CHECK(memcmp(buf, want, sizeof want) == 0, "external32 bytes");
    memset(out, 0, sizeof out);
    pos = 0;
    CHECK(MPI_Unpack_external("external32", buf, sizeof want, &pos, out, 2,
                              r) == MPI_SUCCESS &&
              pos == (MPI_Aint)sizeof want,
          "Unpack_external");
    CHECK(out[0].s == in[0].s && out[0].i == in[0].i && out[0].d == 1.5 &&
              out[1].s == -2 && out[1].i == -7 && out[1].d == -10.0,
          "external32 round trip");

    /* long: 4 bytes in external32, sign kept */
    pos = 0;
    CHECK(MPI_Pack_external_size("external32", 2, MPI_LONG, &sz) ==
              MPI_SUCCESS && sz == 8,
          "size of 2 longs %ld", (long)sz);
    CHECK(MPI_Pack_external("external32", l, 2, MPI_LONG, buf, sizeof buf,
                            &pos) == MPI_SUCCESS && pos == 8 &&
              memcmp(buf, lwant, 8) == 0,
          "external32 longs");
    pos = 0;
    MPI_Unpack_external("external32", buf, 8, &pos, l2, 2, MPI_LONG);
    CHECK(l2[0] == -2 && l2[1] == 70000, "longs back %ld %ld", l2[0], l2[1]);

    /* bad input */
    pos = 0;
    if (sizeof(long) > 4) {
        big <<= 40;
        CHECK(errclass(MPI_Pack_external("external32", &big, 1, MPI_LONG, buf,
                                         sizeof buf, &pos)) ==
                  MPI_ERR_CONVERSION,
              "a long too large for external32");
    }
    CHECK(errclass(MPI_Pack_external("native", in, 1, r, buf, sizeof buf,
                                     &pos)) == MPI_ERR_UNSUPPORTED_DATAREP,
          "datarep native");
    CHECK(errclass(MPI_Pack_external("external32", in, 2, r, buf, 10,
                                     &pos)) == MPI_ERR_TRUNCATE,
          "outbuf too small");
    pos = 0;
    CHECK(errclass(MPI_Unpack_external("external32", buf, 10, &pos, out, 2,
                                       r)) == MPI_ERR_TRUNCATE,
          "inbuf too small");
    if (sizeof(wchar_t) != 2)
        CHECK(errclass(MPI_Pack_external("external32", &wc, 1, MPI_WCHAR,
                                         buf, sizeof buf, &pos)) ==
                  MPI_ERR_TYPE,
              "wchar_t refused");
    CHECK(errclass(MPI_Pack_external_size("external32", -1, r, &sz)) ==
              MPI_ERR_COUNT,
          "negative count");
    MPI_Type_free(&r);
}

/* ---- decoding datatypes ---- */
static void envelope(void)
{
    MPI_Datatype v, st, r, sub, hb, dup, got[4], rebuilt;
    int ni, na, nt, comb, ints[16], sz, sizes[2] = {6, 5}, subs[2] = {2, 3},
        starts[2] = {1, 2}, bl[2] = {2, 1};
    MPI_Aint aints[4], d[2] = {0, 64}, hd[3] = {8, 40, 0};
    char p1[512], p2[512];
    int pos1 = 0, pos2 = 0;
    double src[64];

    for (int i = 0; i < 64; i++)
        src[i] = i * 0.5;
    CHECK(MPI_Type_get_envelope(MPI_INT, &ni, &na, &nt, &comb) ==
              MPI_SUCCESS && comb == MPI_COMBINER_NAMED && ni == 0 &&
              na == 0 && nt == 0,
          "MPI_INT is named");
    CHECK(errclass(MPI_Type_get_contents(MPI_INT, 4, 4, 4, ints, aints,
                                         got)) == MPI_ERR_TYPE,
          "contents of a named type");

    MPI_Type_vector(3, 2, 5, MPI_DOUBLE, &v);
    MPI_Type_get_envelope(v, &ni, &na, &nt, &comb);
    CHECK(comb == MPI_COMBINER_VECTOR && ni == 3 && na == 0 && nt == 1,
          "vector envelope %d %d %d %d", comb, ni, na, nt);
    MPI_Type_get_contents(v, 16, 4, 4, ints, aints, got);
    CHECK(ints[0] == 3 && ints[1] == 2 && ints[2] == 5 &&
              got[0] == MPI_DOUBLE,
          "vector contents %d %d %d", ints[0], ints[1], ints[2]);

    {
        MPI_Datatype types[2] = {v, MPI_DOUBLE};
        MPI_Type_create_struct(2, bl, d, types, &st);
    }
    MPI_Type_commit(&st);
    MPI_Type_get_envelope(st, &ni, &na, &nt, &comb);
    CHECK(comb == MPI_COMBINER_STRUCT && ni == 3 && na == 2 && nt == 2,
          "struct envelope %d %d %d %d", comb, ni, na, nt);
    CHECK(errclass(MPI_Type_get_contents(st, 2, 2, 2, ints, aints, got)) ==
              MPI_ERR_ARG,
          "contents into arrays too small");
    /* the program frees the vector: the struct still holds it */
    MPI_Type_free(&v);
    CHECK(MPI_Type_get_contents(st, 16, 4, 4, ints, aints, got) ==
              MPI_SUCCESS,
          "struct contents");
    CHECK(ints[0] == 2 && ints[1] == 2 && ints[2] == 1 && aints[0] == 0 &&
              aints[1] == 64 && got[1] == MPI_DOUBLE,
          "struct contents %d %d %d %ld %ld", ints[0], ints[1], ints[2],
          (long)aints[0], (long)aints[1]);
    /* the vector handed back works, and rebuilds an equal struct */
    CHECK(MPI_Type_size(got[0], &sz) == MPI_SUCCESS &&
              sz == (int)(6 * sizeof(double)),
          "the vector handed back: size %d", sz);
    MPI_Type_get_envelope(got[0], &ni, &na, &nt, &comb);
    CHECK(comb == MPI_COMBINER_VECTOR, "its combiner %d", comb);
    MPI_Type_create_struct(ints[0], &ints[1], aints, got, &rebuilt);
    MPI_Type_commit(&rebuilt);
    MPI_Pack(src, 1, st, p1, sizeof p1, &pos1, MPI_COMM_WORLD);
    MPI_Pack(src, 1, rebuilt, p2, sizeof p2, &pos2, MPI_COMM_WORLD);
    CHECK(pos1 == pos2 && pos1 == (int)(13 * sizeof(double)) &&
              memcmp(p1, p2, (size_t)pos1) == 0,
          "the rebuilt struct packs alike (%d %d)", pos1, pos2);
    CHECK(MPI_Type_free(&got[0]) == MPI_SUCCESS, "freeing the handed type");
    MPI_Type_free(&rebuilt);
    /* a second time: handed out again, freed again */
    MPI_Type_get_contents(st, 16, 4, 4, ints, aints, got);
    CHECK(MPI_Type_size(got[0], &sz) == MPI_SUCCESS, "handed out again");
    MPI_Type_free(&got[0]);
    pos1 = 0;
    CHECK(MPI_Pack(src, 1, st, p1, sizeof p1, &pos1, MPI_COMM_WORLD) ==
              MPI_SUCCESS && pos1 == (int)(13 * sizeof(double)),
          "the struct after its parts were freed");

    MPI_Type_create_resized(st, -16, 200, &r);
    MPI_Type_get_envelope(r, &ni, &na, &nt, &comb);
    MPI_Type_get_contents(r, 16, 4, 4, ints, aints, got);
    CHECK(comb == MPI_COMBINER_RESIZED && ni == 0 && na == 2 && nt == 1 &&
              aints[0] == -16 && aints[1] == 200 && got[0] == st,
          "resized contents");
    MPI_Type_free(&got[0]);
    MPI_Type_free(&r);
    MPI_Type_free(&st);

    MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_C, MPI_INT,
                             &sub);
    MPI_Type_get_envelope(sub, &ni, &na, &nt, &comb);
    MPI_Type_get_contents(sub, 16, 4, 4, ints, aints, got);
    CHECK(comb == MPI_COMBINER_SUBARRAY && ni == 8 && na == 0 && nt == 1 &&
              ints[0] == 2 && ints[1] == 6 && ints[2] == 5 &&
              ints[3] == 2 && ints[4] == 3 && ints[5] == 1 &&
              ints[6] == 2 && ints[7] == MPI_ORDER_C && got[0] == MPI_INT,
          "subarray contents (combiner %d, %d ints)", comb, ni);
    MPI_Type_size(sub, &sz);
    CHECK(sz == (int)(6 * sizeof(int)), "subarray size %d", sz);
    MPI_Type_free(&sub);

    MPI_Type_create_hindexed_block(3, 2, hd, MPI_INT, &hb);
    MPI_Type_get_envelope(hb, &ni, &na, &nt, &comb);
    MPI_Type_get_contents(hb, 16, 4, 4, ints, aints, got);
    CHECK(comb == MPI_COMBINER_HINDEXED_BLOCK && ni == 2 && na == 3 &&
              ints[0] == 3 && ints[1] == 2 && aints[1] == 40,
          "hindexed_block contents");
    MPI_Type_dup(hb, &dup);
    MPI_Type_get_envelope(dup, &ni, &na, &nt, &comb);
    MPI_Type_get_contents(dup, 16, 4, 4, ints, aints, got);
    CHECK(comb == MPI_COMBINER_DUP && ni == 0 && na == 0 && nt == 1 &&
              got[0] == hb,
          "dup contents");
    MPI_Type_free(&got[0]);
    MPI_Type_free(&dup);
    MPI_Type_free(&hb);
    CHECK(errclass(MPI_Type_get_envelope(hb, &ni, &na, &nt, &comb)) ==
              MPI_ERR_TYPE,
          "envelope of a freed type");
}

static int dr_extent(MPI_Datatype t, MPI_Aint *ext, void *extra)
{
    (void)extra;
    return MPI_Type_get_extent(t, ext, ext);
}

static void datarep(void)
{
    CHECK(errclass(MPI_Register_datarep("mine", MPI_CONVERSION_FN_NULL,
                                        MPI_CONVERSION_FN_NULL, dr_extent,
                                        NULL)) ==
              MPI_ERR_UNSUPPORTED_DATAREP,
          "a representation of the program is refused");
    CHECK(errclass(MPI_Register_datarep("external32", MPI_CONVERSION_FN_NULL,
                                        MPI_CONVERSION_FN_NULL, dr_extent,
                                        NULL)) == MPI_ERR_DUP_DATAREP,
          "external32 exists");
    CHECK(errclass(MPI_Register_datarep("", MPI_CONVERSION_FN_NULL,
                                        MPI_CONVERSION_FN_NULL, dr_extent,
                                        NULL)) == MPI_ERR_ARG,
          "an empty name");
    CHECK(errclass(MPI_Register_datarep("x", MPI_CONVERSION_FN_NULL,
                                        MPI_CONVERSION_FN_NULL, NULL,
                                        NULL)) == MPI_ERR_ARG,
          "no extent function");
}

/* ---- MPI_Comm_idup ---- */
static void check_dup(MPI_Comm parent, MPI_Comm c, const char *what)
{
    int rank, size, prank, psize, res = -1, got = -1, sum = 0;

    MPI_Comm_rank(c, &rank);
    MPI_Comm_size(c, &size);
    MPI_Comm_rank(parent, &prank);
    MPI_Comm_size(parent, &psize);
    MPI_Comm_compare(parent, c, &res);
    CHECK(rank == prank && size == psize && res == MPI_CONGRUENT,
          "%s: rank %d/%d size %d/%d compare %d", what, rank, prank, size,
          psize, res);
    MPI_Sendrecv(&rank, 1, MPI_INT, (rank + 1) % size, 11, &got, 1, MPI_INT,
                 (rank + size - 1) % size, 11, c, MPI_STATUS_IGNORE);
    CHECK(got == (rank + size - 1) % size, "%s: ring got %d", what, got);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, c);
    CHECK(sum == size * (size - 1) / 2, "%s: allreduce %d", what, sum);
}

static void idup(int rank, int size)
{
    MPI_Comm a = MPI_COMM_NULL, b = MPI_COMM_NULL, c, half, h2 = 0;
    MPI_Request rq[2];
    int got = -1, x = rank, ya = 100 + rank, yb = 200 + rank, ra = -1,
        rb = -1;

    CHECK(MPI_Comm_idup(MPI_COMM_WORLD, &a, &rq[0]) == MPI_SUCCESS,
          "Comm_idup");
    /* other traffic while it is under way: it must not block it */
    MPI_Sendrecv(&x, 1, MPI_INT, (rank + 1) % size, 12, &got, 1, MPI_INT,
                 (rank + size - 1) % size, 12, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    CHECK(got == (rank + size - 1) % size, "traffic during idup %d", got);
    /* a second one, and a blocking dup, before either completes */
    MPI_Comm_idup(MPI_COMM_WORLD, &b, &rq[1]);
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    CHECK(MPI_Waitall(2, rq, MPI_STATUSES_IGNORE) == MPI_SUCCESS,
          "Waitall of the idups");
    CHECK(a != MPI_COMM_NULL && b != MPI_COMM_NULL && a != b,
          "two communicators %d %d", a, b);
    check_dup(MPI_COMM_WORLD, a, "idup a");
    check_dup(MPI_COMM_WORLD, b, "idup b");
    check_dup(MPI_COMM_WORLD, c, "dup c");
    /* separate contexts: the same tag on a and b does not cross */
    {
        MPI_Request s[2];
        int to = (rank + 1) % size, from = (rank + size - 1) % size;
        MPI_Isend(&ya, 1, MPI_INT, to, 5, a, &s[0]);
        MPI_Isend(&yb, 1, MPI_INT, to, 5, b, &s[1]);
        MPI_Recv(&rb, 1, MPI_INT, from, 5, b, MPI_STATUS_IGNORE);
        MPI_Recv(&ra, 1, MPI_INT, from, 5, a, MPI_STATUS_IGNORE);
        MPI_Waitall(2, s, MPI_STATUSES_IGNORE);
        CHECK(ra == 100 + from && rb == 200 + from, "contexts crossed %d %d",
              ra, rb);
    }
    /* of a split: halves, each its own agreement */
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half);
    MPI_Comm_idup(half, &h2, &rq[0]);
    MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
    check_dup(half, h2, "idup of a split");
    /* a member takes a context meanwhile (a blocking dup among ranks 1
     * and 2 while the world's idup is agreed): the candidate it took is
     * refused there and the next one agreed */
    if (size >= 3) {
        MPI_Comm pair, pd = MPI_COMM_NULL, w = MPI_COMM_NULL;
        MPI_Comm_split(MPI_COMM_WORLD, rank == 1 || rank == 2 ? 0 : 1, rank,
                       &pair);
        MPI_Comm_idup(MPI_COMM_WORLD, &w, &rq[0]);
        if (rank == 1 || rank == 2)
            MPI_Comm_dup(pair, &pd);
        MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
        check_dup(MPI_COMM_WORLD, w, "idup beside another agreement");
        if (pd != MPI_COMM_NULL) {
            check_dup(pair, pd, "the dup beside it");
            /* distinct contexts: a message on w is not one on pd */
            int peer = rank == 1 ? 2 : 1, v1 = 7 + rank, v2 = 70 + rank,
                r1 = -1, r2 = -1;
            MPI_Request s2[2];
            int prk;
            MPI_Comm_rank(pair, &prk);
            MPI_Isend(&v1, 1, MPI_INT, peer, 9, w, &s2[0]);
            MPI_Isend(&v2, 1, MPI_INT, 1 - prk, 9, pd, &s2[1]);
            MPI_Recv(&r2, 1, MPI_INT, 1 - prk, 9, pd, MPI_STATUS_IGNORE);
            MPI_Recv(&r1, 1, MPI_INT, peer, 9, w, MPI_STATUS_IGNORE);
            MPI_Waitall(2, s2, MPI_STATUSES_IGNORE);
            CHECK(r1 == 7 + peer && r2 == 70 + peer,
                  "idup and dup contexts crossed %d %d", r1, r2);
            MPI_Comm_free(&pd);
        }
        MPI_Comm_free(&w);
        MPI_Comm_free(&pair);
    }
    CHECK(errclass(MPI_Comm_idup(MPI_COMM_NULL, &h2, &rq[0])) == MPI_ERR_COMM,
          "idup of MPI_COMM_NULL");
    MPI_Comm_free(&a);
    MPI_Comm_free(&b);
    MPI_Comm_free(&c);
    MPI_Comm_free(&h2);
    MPI_Comm_free(&half);
}

/* ---- MPI_Comm_join: ranks 0 and 1 over a UNIX socket ---- */
static void join(int rank, int size)
{
    struct sockaddr_un a;
    char path[96];
    int fd = -1, ls = -1, ok = 1, v = -1;
    MPI_Comm ic = MPI_COMM_NULL;

    CHECK(errclass(MPI_Comm_join(-1, &ic)) == MPI_ERR_ARG, "join of fd -1");
    /* the sim runs one core at a time: a process blocked in accept()
     * outside the HAL would hold the others up (docs/MPI.md) */
    if (size < 2 || rank > 1 ||
        (getenv("RCK_BACKEND") && strcmp(getenv("RCK_BACKEND"), "sim") == 0))
        return;
    memset(&a, 0, sizeof a);
    a.sun_family = AF_UNIX;
    if (rank == 0) {
        snprintf(path, sizeof path, "/tmp/rckmpi_join_%d", (int)getpid());
        unlink(path);
        snprintf(a.sun_path, sizeof a.sun_path, "%s", path);
        ls = socket(AF_UNIX, SOCK_STREAM, 0);
        ok = ls >= 0 && bind(ls, (struct sockaddr *)&a, sizeof a) == 0 &&
             listen(ls, 1) == 0;
        MPI_Send(path, sizeof path, MPI_CHAR, 1, 21, MPI_COMM_WORLD);
        MPI_Send(&ok, 1, MPI_INT, 1, 22, MPI_COMM_WORLD);
        if (ok)
            fd = accept(ls, NULL, NULL);
    } else {
        MPI_Recv(path, sizeof path, MPI_CHAR, 0, 21, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        MPI_Recv(&ok, 1, MPI_INT, 0, 22, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        snprintf(a.sun_path, sizeof a.sun_path, "%s", path);
        fd = socket(AF_UNIX, SOCK_STREAM, 0);
        if (ok && connect(fd, (struct sockaddr *)&a, sizeof a) != 0)
            ok = 0;
    }
    CHECK(ok && fd >= 0, "the socket between ranks 0 and 1");
    if (ok && fd >= 0) {
        int inter = 0, rsize = 0, other = 1 - rank;
        CHECK(MPI_Comm_join(fd, &ic) == MPI_SUCCESS && ic != MPI_COMM_NULL,
              "Comm_join");
        MPI_Comm_test_inter(ic, &inter);
        MPI_Comm_remote_size(ic, &rsize);
        CHECK(inter && rsize == 1, "join: inter %d remote size %d", inter,
              rsize);
        /* traffic across it, and not on the world's context */
        if (rank == 0) {
            int x = 4242;
            MPI_Send(&x, 1, MPI_INT, 0, 3, ic);
            MPI_Recv(&v, 1, MPI_INT, 0, 3, ic, MPI_STATUS_IGNORE);
            CHECK(v == 4243, "join: reply %d", v);
        } else {
            MPI_Recv(&v, 1, MPI_INT, 0, 3, ic, MPI_STATUS_IGNORE);
            CHECK(v == 4242, "join: got %d", v);
            v++;
            MPI_Send(&v, 1, MPI_INT, 0, 3, ic);
        }
        (void)other;
        MPI_Comm_free(&ic);
    }
    if (fd >= 0)
        close(fd);
    if (ls >= 0) {
        close(ls);
        unlink(path);
    }
}

static void match_size(void)
{
    MPI_Datatype t = MPI_DATATYPE_NULL;

    CHECK(MPI_Type_match_size(MPI_TYPECLASS_REAL, sizeof(double), &t) ==
              MPI_SUCCESS && t == MPI_DOUBLE,
          "real %zu", sizeof(double));
    CHECK(MPI_Type_match_size(MPI_TYPECLASS_REAL, sizeof(float), &t) ==
              MPI_SUCCESS && t == MPI_FLOAT,
          "real %zu", sizeof(float));
    CHECK(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 4, &t) == MPI_SUCCESS &&
              t == MPI_INT32_T,
          "integer 4");
    CHECK(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 8, &t) == MPI_SUCCESS &&
              t == MPI_INT64_T,
          "integer 8");
    CHECK(errclass(MPI_Type_match_size(MPI_TYPECLASS_REAL, 3, &t)) ==
              MPI_ERR_ARG,
          "real of 3 bytes");
    CHECK(errclass(MPI_Type_match_size(42, 4, &t)) == MPI_ERR_ARG,
          "type class 42");
}

/* ---- the tool interface: no variables, no categories ---- */
static int t_fail;
#define TCHECK(cond, what)                                                   \
    do {                                                                     \
        if (!(cond)) {                                                       \
            fprintf(stderr, "FAILED (MPI_T, before MPI_Init): %s\n", what);  \
            t_fail++;                                                        \
        }                                                                    \
    } while (0)

static void tool_interface(void)
{
    int n = -1, prov = -1, idx, cnt;
    char name[64], desc[64];
    int nl = 64, dl = 64, verb, bind, scope, cls, ro, cont, atom, stamp = -1;
    MPI_Datatype dt;
    MPI_T_enum en;
    MPI_T_cvar_handle ch;
    MPI_T_pvar_handle ph;
    MPI_T_pvar_session s = MPI_T_PVAR_SESSION_NULL, s2;

    TCHECK(MPI_T_cvar_get_num(&n) == MPI_T_ERR_NOT_INITIALIZED,
           "cvar_get_num before MPI_T_init_thread");
    TCHECK(MPI_T_finalize() == MPI_T_ERR_NOT_INITIALIZED,
           "finalize before init");
    TCHECK(MPI_T_init_thread(MPI_THREAD_SINGLE, &prov) == MPI_SUCCESS &&
               prov == MPI_THREAD_SINGLE,
           "init_thread");
    TCHECK(MPI_T_init_thread(MPI_THREAD_MULTIPLE, &prov) == MPI_SUCCESS &&
               prov >= MPI_THREAD_SINGLE && prov <= MPI_THREAD_MULTIPLE,
           "init_thread twice");
    TCHECK(MPI_T_cvar_get_num(&n) == MPI_SUCCESS && n == 0, "no cvars");
    TCHECK(MPI_T_pvar_get_num(&n) == MPI_SUCCESS && n == 0, "no pvars");
    TCHECK(MPI_T_category_get_num(&n) == MPI_SUCCESS && n == 0,
           "no categories");
    TCHECK(MPI_T_category_changed(&stamp) == MPI_SUCCESS && stamp == 0,
           "category stamp");
    TCHECK(MPI_T_cvar_get_info(0, name, &nl, &verb, &dt, &en, desc, &dl,
                               &bind, &scope) == MPI_T_ERR_INVALID_INDEX,
           "cvar_get_info(0)");
    TCHECK(MPI_T_pvar_get_info(0, name, &nl, &verb, &cls, &dt, &en, desc,
                               &dl, &bind, &ro, &cont,
                               &atom) == MPI_T_ERR_INVALID_INDEX,
           "pvar_get_info(0)");
    TCHECK(MPI_T_category_get_info(-1, name, &nl, desc, &dl, &n, &n, &n) ==
               MPI_T_ERR_INVALID_INDEX,
           "category_get_info(-1)");
    TCHECK(MPI_T_category_get_cvars(0, 1, &idx) == MPI_T_ERR_INVALID_INDEX,
           "category_get_cvars");
    TCHECK(MPI_T_cvar_get_index("eager_limit", &idx) ==
               MPI_T_ERR_INVALID_NAME,
           "cvar_get_index");
    TCHECK(MPI_T_pvar_get_index("x", MPI_T_PVAR_CLASS_COUNTER, &idx) ==
               MPI_T_ERR_INVALID_NAME,
           "pvar_get_index");
    TCHECK(MPI_T_category_get_index("x", &idx) == MPI_T_ERR_INVALID_NAME,
           "category_get_index");
    TCHECK(MPI_T_cvar_handle_alloc(0, NULL, &ch, &cnt) ==
               MPI_T_ERR_INVALID_INDEX,
           "cvar_handle_alloc");
    TCHECK(MPI_T_cvar_read(MPI_T_CVAR_HANDLE_NULL, &n) ==
               MPI_T_ERR_INVALID_HANDLE,
           "cvar_read");
    TCHECK(MPI_T_enum_get_info(MPI_T_ENUM_NULL, &n, name, &nl) ==
               MPI_T_ERR_INVALID_HANDLE,
           "enum_get_info");
    /* sessions */
    TCHECK(MPI_T_pvar_session_create(&s) == MPI_SUCCESS &&
               s != MPI_T_PVAR_SESSION_NULL,
           "session_create");
    TCHECK(MPI_T_pvar_session_create(&s2) == MPI_SUCCESS && s2 != s,
           "a second session");
    TCHECK(MPI_T_pvar_handle_alloc(s, 0, NULL, &ph, &cnt) ==
               MPI_T_ERR_INVALID_INDEX,
           "pvar_handle_alloc");
    TCHECK(MPI_T_pvar_start(s, MPI_T_PVAR_ALL_HANDLES) == MPI_SUCCESS,
           "start of all (no) handles");
    TCHECK(MPI_T_pvar_read(s, MPI_T_PVAR_HANDLE_NULL, &n) ==
               MPI_T_ERR_INVALID_HANDLE,
           "pvar_read");
    TCHECK(MPI_T_pvar_start(12345, MPI_T_PVAR_ALL_HANDLES) ==
               MPI_T_ERR_INVALID_SESSION,
           "start in a bad session");
    TCHECK(MPI_T_pvar_session_free(&s) == MPI_SUCCESS &&
               s == MPI_T_PVAR_SESSION_NULL,
           "session_free");
    TCHECK(MPI_T_pvar_session_free(&s) == MPI_T_ERR_INVALID_SESSION,
           "session freed twice");
    MPI_T_pvar_session_free(&s2);
    /* two inits, two finalizes */
    TCHECK(MPI_T_finalize() == MPI_SUCCESS, "finalize 1");
    TCHECK(MPI_T_cvar_get_num(&n) == MPI_SUCCESS, "still initialized");
    TCHECK(MPI_T_finalize() == MPI_SUCCESS, "finalize 2");
    TCHECK(MPI_T_cvar_get_num(&n) == MPI_T_ERR_NOT_INITIALIZED,
           "after the last finalize");
}

int main(int argc, char **argv)
{
    int rank, size;

    tool_interface(); /* before MPI_Init, as MPI_T allows */
    MPI_Init(&argc, &argv);
    mpitest_failures += t_fail;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    address_arith();
    count_forms();
    hindexed_block(rank, size);
    comm_hints();
    win_hints();
    type_names();
    user_errors();
    match_size();
    type_attrs();
    win_attrs_and_handlers();
    grequests();
    external32();
    envelope();
    datarep();
    idup(rank, size);
    join(rank, size);
    {
        char text[MPI_MAX_ERROR_STRING];
        int len, c = -1;
        MPI_Error_string(MPI_T_ERR_INVALID_INDEX, text, &len);
        CHECK(strstr(text, "invalid index") != NULL, "MPI_T text: %s", text);
        CHECK(MPI_Error_class(MPI_T_ERR_INVALID_NAME, &c) == MPI_SUCCESS &&
                  c == MPI_T_ERR_INVALID_NAME && c <= MPI_ERR_LASTCODE,
              "MPI_T class %d", c);
    }
    MPI_Barrier_p2p();
    return mpitest_end("t_mpi3");
}

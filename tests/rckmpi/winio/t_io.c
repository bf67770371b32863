/* MPI-IO (docs/MPI-ONESIDED-IO.md): write then read back across ranks
 * (explicit offsets, views with vector and resized filetypes, individual
 * and shared file pointers, ordered access, non-blocking calls), sizes,
 * append, and the error classes of bad input. argv[1]: a directory for
 * the test's files (default /tmp). Any number of processes. */
#include "mpitest.h"

#include <unistd.h>

#define N 13 /* ints per rank (not a power of two) */

static char path[480], path2[512];

static void expect_err(int err, int want, const char *what)
{
    int cls = -1;
    if (err != MPI_SUCCESS)
        MPI_Error_class(err, &cls);
    CHECK(cls == want, "%s: error %d (class %d), want class %d", what, err,
          cls, want);
}

int main(int argc, char **argv)
{
    int rank, size, err, buf[4 * N], got[4 * N], cnt;
    MPI_File fh;
    MPI_Status st;
    MPI_Offset sz, pos;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    {
        /* one name for the job: rank 0's pid */
        int pid = (int)getpid();
        MPI_Bcast(&pid, 1, MPI_INT, 0, MPI_COMM_WORLD);
        snprintf(path, sizeof path, "%s/rckmpi_io_%d_%d.dat",
                 argc > 1 ? argv[1] : "/tmp", pid, size);
        snprintf(path2, sizeof path2, "%s.2", path);
    }

    /* ---- explicit offsets: rank r's N ints at r*N ---- */
    {
        /* hints: the file keeps those given at open, set_info replaces
         * them, get_info returns a copy (empty when none) */
        MPI_Info hints, used;
        char v[32];
        int nk = -1, flag = 0;
        MPI_Info_create(&hints);
        MPI_Info_set(hints, "access_style", "read_mostly");
        err = MPI_File_open(MPI_COMM_WORLD, path,
                            MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_EXCL,
                            hints, &fh);
        CHECK(err == MPI_SUCCESS, "open create: %d", err);
        MPI_Info_free(&hints);
        err = MPI_File_get_info(fh, &used);
        CHECK(err == MPI_SUCCESS, "get_info: %d", err);
        MPI_Info_get_nkeys(used, &nk);
        MPI_Info_get(used, "access_style", sizeof v - 1, v, &flag);
        CHECK(nk == 1 && flag && strcmp(v, "read_mostly") == 0,
              "get_info after open: %d keys, flag %d", nk, flag);
        MPI_Info_free(&used);
        MPI_Info_create(&hints);
        MPI_Info_set(hints, "cb_nodes", "1");
        MPI_File_set_info(fh, hints);
        MPI_Info_free(&hints);
        MPI_File_get_info(fh, &used);
        MPI_Info_get_nkeys(used, &nk);
        MPI_Info_get(used, "cb_nodes", sizeof v - 1, v, &flag);
        CHECK(nk == 1 && flag && strcmp(v, "1") == 0,
              "get_info after set_info: %d keys, flag %d", nk, flag);
        MPI_Info_free(&used);
        MPI_File_set_info(fh, MPI_INFO_NULL);
        MPI_File_get_info(fh, &used);
        MPI_Info_get_nkeys(used, &nk);
        CHECK(nk == 0, "get_info after MPI_INFO_NULL: %d keys", nk);
        MPI_Info_free(&used);
        expect_err(MPI_File_get_info(fh, NULL), MPI_ERR_ARG,
                   "get_info into NULL");
    }
    for (int i = 0; i < N; i++)
        buf[i] = rank * 1000 + i;
    MPI_File_write_at(fh, (MPI_Offset)rank * N * sizeof(int), buf, N,
                      MPI_INT, &st);
    MPI_Get_count(&st, MPI_INT, &cnt);
    CHECK(cnt == N, "write_at count %d", cnt);
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_get_size(fh, &sz);
    CHECK(sz == (MPI_Offset)(size * N * sizeof(int)), "size %lld",
          (long long)sz);
    {
        int right = (rank + 1) % size;
        MPI_File_read_at_all(fh, (MPI_Offset)right * N * sizeof(int), got,
                             N, MPI_INT, &st);
        MPI_Get_count(&st, MPI_INT, &cnt);
        CHECK(cnt == N, "read_at count %d", cnt);
        for (int i = 0; i < N; i++)
            CHECK(got[i] == right * 1000 + i, "read_at %d: %d", i, got[i]);
        /* past the end: a short read */
        MPI_File_read_at(fh, sz - 2 * (MPI_Offset)sizeof(int), got, 5,
                         MPI_INT, &st);
        MPI_Get_count(&st, MPI_INT, &cnt);
        CHECK(cnt == 2, "read at the end: %d ints", cnt);
    }
    {
        int amode;
        MPI_Group g;
        int gs;
        MPI_File_get_amode(fh, &amode);
        CHECK(amode == (MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_EXCL),
              "amode %#x", amode);
        MPI_File_get_group(fh, &g);
        MPI_Group_size(g, &gs);
        CHECK(gs == size, "group size %d", gs);
        MPI_Group_free(&g);
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* ---- views: blocks of B ints round-robin over the ranks ---- */
    {
        const int B = 3, K = 4;
        MPI_Datatype vec, blk, tile;
        MPI_Offset disp = (MPI_Offset)rank * B * sizeof(int);
        MPI_File_set_size(fh, 0);
        MPI_Type_vector(K, B, B * size, MPI_INT, &vec);
        MPI_Type_commit(&vec);
        MPI_File_set_view(fh, disp, MPI_INT, vec, "native", MPI_INFO_NULL);
        for (int i = 0; i < K * B; i++)
            buf[i] = 100000 + rank * 100 + i;
        MPI_File_write_all(fh, buf, K * B, MPI_INT, &st);
        MPI_File_get_position(fh, &pos);
        CHECK(pos == K * B, "position after write_all %lld",
              (long long)pos);
        MPI_File_sync(fh);
        MPI_Barrier(MPI_COMM_WORLD);
        /* the whole file as ints: block j of round k is rank j's */
        MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native",
                          MPI_INFO_NULL);
        {
            int total = K * B * size, *all = malloc(sizeof(int) * total);
            MPI_File_read_at(fh, 0, all, total, MPI_INT, &st);
            for (int k = 0; k < K; k++)
                for (int j = 0; j < size; j++)
                    for (int b = 0; b < B; b++) {
                        int v = all[(k * size + j) * B + b];
                        CHECK(v == 100000 + j * 100 + k * B + b,
                              "interleaved: round %d rank %d [%d] = %d", k,
                              j, b, v);
                    }
            free(all);
        }
        /* read the left neighbour's part through a resized contiguous
         * filetype (the same layout) */
        MPI_Type_contiguous(B, MPI_INT, &blk);
        MPI_Type_create_resized(blk, 0, (MPI_Aint)(B * size * sizeof(int)),
                                &tile);
        MPI_Type_commit(&tile);
        int left = (rank + size - 1) % size;
        MPI_File_set_view(fh, (MPI_Offset)left * B * sizeof(int), MPI_INT,
                          tile, "native", MPI_INFO_NULL);
        memset(got, 0, sizeof got);
        MPI_File_read(fh, got, K * B - 1, MPI_INT, &st);
        MPI_File_read(fh, got + K * B - 1, 1, MPI_INT, &st);
        for (int i = 0; i < K * B; i++)
            CHECK(got[i] == 100000 + left * 100 + i, "view read %d: %d", i,
                  got[i]);
        {
            MPI_Offset bo;
            MPI_File_get_byte_offset(fh, B + 1, &bo);
            CHECK(bo == (MPI_Offset)((left * B + B * size + 1) *
                                     sizeof(int)),
                  "byte offset %lld", (long long)bo);
        }
        /* seek: back two etypes, to the end of the view */
        MPI_File_seek(fh, -2, MPI_SEEK_CUR);
        MPI_File_read(fh, got, 1, MPI_INT, &st);
        CHECK(got[0] == 100000 + left * 100 + K * B - 2, "after seek %d",
              got[0]);
        MPI_File_seek(fh, 0, MPI_SEEK_END);
        MPI_File_get_position(fh, &pos);
        CHECK(pos == K * B, "end of the view at %lld", (long long)pos);
        {
            MPI_Offset d;
            MPI_Datatype e, ft;
            char rep[MPI_MAX_DATAREP_STRING];
            MPI_File_get_view(fh, &d, &e, &ft, rep);
            CHECK(d == (MPI_Offset)left * B * (MPI_Offset)sizeof(int) &&
                      e == MPI_INT && strcmp(rep, "native") == 0,
                  "get_view %lld %d %s", (long long)d, e, rep);
            MPI_Type_free(&ft);
        }
        MPI_Type_free(&vec);
        MPI_Type_free(&blk);
        MPI_Type_free(&tile);
        /* a contiguous filetype after a displacement of 5 bytes: the
         * view's bytes are the file's from there on, every access is one
         * run however many tiles it spans (IMB-IO's writes); each rank
         * writes 1000 ints at etype 7 + 1000 * rank, reads its
         * neighbour's back through the byte view */
        {
            MPI_Datatype three;
            MPI_File fv;
            int *big = malloc(1000 * sizeof(int)), *chk, n;
            MPI_Offset bo;
            char pv[4200];
            snprintf(pv, sizeof pv, "%s.flat", path);
            err = MPI_File_open(MPI_COMM_WORLD, pv,
                                MPI_MODE_CREATE | MPI_MODE_RDWR |
                                    MPI_MODE_DELETE_ON_CLOSE,
                                MPI_INFO_NULL, &fv);
            CHECK(err == MPI_SUCCESS, "open %s: %d", pv, err);
            MPI_Type_contiguous(3, MPI_INT, &three);
            MPI_Type_commit(&three);
            MPI_File_set_view(fv, 5, MPI_INT, three, "native",
                              MPI_INFO_NULL);
            for (int i = 0; i < 1000; i++)
                big[i] = rank * 7919 + i;
            MPI_File_write_at(fv, 7 + 1000 * (MPI_Offset)rank, big, 1000,
                              MPI_INT, &st);
            MPI_Get_count(&st, MPI_INT, &n);
            CHECK(n == 1000, "flat view write: %d ints", n);
            MPI_File_get_byte_offset(fv, 7 + 1000 * (MPI_Offset)left, &bo);
            CHECK(bo == 5 + (7 + 1000 * (MPI_Offset)left) * 4,
                  "flat view byte offset %lld", (long long)bo);
            MPI_File_sync(fv);
            MPI_Barrier(MPI_COMM_WORLD);
            MPI_File_sync(fv);
            MPI_File_set_view(fv, 0, MPI_BYTE, MPI_BYTE, "native",
                              MPI_INFO_NULL);
            chk = calloc(1000, sizeof(int));
            MPI_File_read_at(fv, bo, chk, 4000, MPI_BYTE, &st);
            MPI_Get_count(&st, MPI_BYTE, &n);
            CHECK(n == 4000, "flat view read back: %d bytes", n);
            for (int i = 0; i < 1000; i++)
                if (chk[i] != left * 7919 + i) {
                    CHECK(0, "flat view: int %d of rank %d is %d", i, left,
                          chk[i]);
                    break;
                }
            free(chk);
            free(big);
            MPI_File_close(&fv);
            MPI_Type_free(&three);
        }
        MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native",
                          MPI_INFO_NULL);
    }

    /* ---- non-blocking ---- */
    {
        MPI_Request rq;
        int v[2] = {rank, -rank}, w[2] = {0, 0};
        MPI_Offset off = (MPI_Offset)(7 + rank) * 2 * sizeof(int);
        MPI_File_iwrite_at(fh, off, v, 2, MPI_INT, &rq);
        MPI_Wait(&rq, &st);
        MPI_File_iread_at(fh, off, w, 2, MPI_INT, &rq);
        MPI_Wait(&rq, &st);
        MPI_Get_count(&st, MPI_INT, &cnt);
        CHECK(cnt == 2 && w[0] == rank && w[1] == -rank, "iread %d: %d %d",
              cnt, w[0], w[1]);
    }

    /* ---- non-blocking and split collectives ---- */
    {
        MPI_Request rq;
        int v[3] = {rank, 2 * rank, 3 * rank}, w[3] = {-1, -1, -1}, e;
        MPI_Offset off = (MPI_Offset)(40 + 3 * rank) * sizeof(int);
        MPI_Aint ext;
        MPI_File_iwrite_at_all(fh, off, v, 3, MPI_INT, &rq);
        MPI_Wait(&rq, &st);
        MPI_Get_count(&st, MPI_INT, &cnt);
        CHECK(cnt == 3, "iwrite_at_all count %d", cnt);
        MPI_File_iread_at_all(fh, off, w, 3, MPI_INT, &rq);
        MPI_Wait(&rq, &st);
        CHECK(w[0] == rank && w[1] == 2 * rank && w[2] == 3 * rank,
              "iread_at_all %d %d %d", w[0], w[1], w[2]);
        v[0] = 77 + rank;
        MPI_File_write_at_all_begin(fh, off, v, 1, MPI_INT);
        e = MPI_File_read_at_all_begin(fh, off, w, 1, MPI_INT);
        expect_err(e, MPI_ERR_OTHER, "two split collectives at once");
        e = MPI_File_write_at_all_end(fh, w, &st);
        expect_err(e, MPI_ERR_OTHER, "split end with another buffer");
        MPI_File_write_at_all_end(fh, v, &st);
        MPI_Get_count(&st, MPI_INT, &cnt);
        CHECK(cnt == 1, "split write count %d", cnt);
        MPI_File_read_at_all_begin(fh, off, w, 3, MPI_INT);
        MPI_File_read_at_all_end(fh, w, &st);
        CHECK(w[0] == 77 + rank && w[1] == 2 * rank, "split read %d %d",
              w[0], w[1]);
        MPI_File_get_type_extent(fh, MPI_DOUBLE, &ext);
        CHECK(ext == sizeof(double), "type extent %ld", (long)ext);
    }

    /* ---- set_size, preallocate ---- */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_set_size(fh, 40);
    MPI_File_get_size(fh, &sz);
    CHECK(sz == 40, "set_size: %lld", (long long)sz);
    MPI_File_preallocate(fh, 24); /* never shrinks */
    MPI_File_get_size(fh, &sz);
    CHECK(sz == 40, "preallocate smaller: %lld", (long long)sz);
    MPI_File_preallocate(fh, 100);
    MPI_File_get_size(fh, &sz);
    CHECK(sz == 100, "preallocate: %lld", (long long)sz);
    MPI_File_set_size(fh, 0);

    /* ---- shared pointer: records of 3 ints, each once ---- */
    {
        int rec[3] = {rank + 1, rank + 1, rank + 1}, *all;
        MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
        MPI_File_write_shared(fh, rec, 3, MPI_INT, &st);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_File_get_position_shared(fh, &pos);
        CHECK(pos == 3 * size, "shared position %lld", (long long)pos);
        all = calloc((size_t)(3 * size), sizeof(int));
        MPI_File_read_at(fh, 0, all, 3 * size, MPI_INT, &st);
        {
            char *seen = calloc((size_t)size + 1, 1);
            for (int i = 0; i < size; i++) {
                int v = all[3 * i];
                CHECK(v >= 1 && v <= size && all[3 * i + 1] == v &&
                          all[3 * i + 2] == v && !seen[v],
                      "shared record %d: %d %d %d", i, v, all[3 * i + 1],
                      all[3 * i + 2]);
                if (v >= 1 && v <= size)
                    seen[v] = 1;
            }
            free(seen);
        }
        /* ordered: rank r's r+1 ints after those, in rank order */
        int mine[64];
        for (int i = 0; i <= rank; i++)
            mine[i] = 50 + rank;
        MPI_File_write_ordered(fh, mine, rank + 1, MPI_INT, &st);
        MPI_File_seek_shared(fh, 3 * size, MPI_SEEK_SET);
        int back[64];
        MPI_File_read_ordered(fh, back, rank + 1, MPI_INT, &st);
        for (int i = 0; i <= rank; i++)
            CHECK(back[i] == 50 + rank, "ordered %d: %d", i, back[i]);
        MPI_File_get_position_shared(fh, &pos);
        CHECK(pos == 3 * size + size * (size + 1) / 2, "ordered end %lld",
              (long long)pos);
        /* non-blocking shared: records of 2 ints, each once, then read
         * back by the same calls, each rank one whole record */
        {
            MPI_Offset base0 = 3 * size + size * (size + 1) / 2;
            MPI_Request rq;
            int two[2] = {200 + rank, 200 + rank}, back2[2] = {-1, -1}, n = -1;
            int *vals = calloc((size_t)size, sizeof(int));
            char *seen = calloc((size_t)size, 1);
            MPI_Barrier(MPI_COMM_WORLD); /* every rank read "ordered end" */
            MPI_File_iwrite_shared(fh, two, 2, MPI_INT, &rq);
            MPI_Wait(&rq, &st);
            MPI_Get_count(&st, MPI_INT, &n);
            CHECK(n == 2, "iwrite_shared count %d", n);
            MPI_Barrier(MPI_COMM_WORLD);
            MPI_File_get_position_shared(fh, &pos);
            CHECK(pos == base0 + 2 * size, "iwrite_shared end %lld",
                  (long long)pos);
            MPI_File_seek_shared(fh, base0, MPI_SEEK_SET);
            MPI_File_iread_shared(fh, back2, 2, MPI_INT, &rq);
            MPI_Wait(&rq, &st);
            MPI_Get_count(&st, MPI_INT, &n);
            CHECK(n == 2 && back2[0] == back2[1] && back2[0] >= 200 &&
                      back2[0] < 200 + size,
                  "iread_shared: count %d, %d %d", n, back2[0], back2[1]);
            MPI_Allgather(back2, 1, MPI_INT, vals, 1, MPI_INT, MPI_COMM_WORLD);
            for (int i = 0; i < size; i++) {
                int v = vals[i] - 200;
                CHECK(v >= 0 && v < size && !seen[v],
                      "iread_shared record of rank %d read twice or lost", v);
                if (v >= 0 && v < size)
                    seen[v] = 1;
            }
            MPI_File_get_position_shared(fh, &pos);
            CHECK(pos == base0 + 2 * size, "iread_shared end %lld",
                  (long long)pos);
            free(vals);
            free(seen);
        }
        free(all);
    }
    /* ---- atomic mode: every rank writes the same strided record at once
     * (one pwrite per int); after it the record is one rank's whole ---- */
    {
        const int M = 600;
        int flag, *rec = malloc(sizeof(int) * M), *back;
        MPI_Datatype strided;
        MPI_File_set_atomicity(fh, 1);
        MPI_File_get_atomicity(fh, &flag);
        CHECK(flag == 1, "atomicity %d", flag);
        MPI_Type_vector(M, 1, 2, MPI_INT, &strided);
        MPI_Type_commit(&strided);
        MPI_File_set_view(fh, 0, MPI_INT, strided, "native", MPI_INFO_NULL);
        for (int i = 0; i < M; i++)
            rec[i] = rank + 1;
        MPI_File_write_at(fh, 0, rec, M, MPI_INT, &st);
        MPI_Barrier(MPI_COMM_WORLD);
        back = calloc((size_t)M, sizeof(int));
        MPI_File_read_at(fh, 0, back, M, MPI_INT, &st);
        for (int i = 1; i < M; i++)
            if (back[i] != back[0]) {
                CHECK(0, "atomic record mixed: [0] %d, [%d] %d", back[0], i,
                      back[i]);
                break;
            }
        CHECK(back[0] >= 1 && back[0] <= size, "atomic record of %d",
              back[0]);
        MPI_File_set_atomicity(fh, 0);
        MPI_Type_free(&strided);
        free(rec);
        free(back);
    }
    MPI_File_close(&fh);
    CHECK(fh == MPI_FILE_NULL, "closed handle %d", fh);

    /* ---- append, read-only ---- */
    err = MPI_File_open(MPI_COMM_WORLD, path,
                        MPI_MODE_WRONLY | MPI_MODE_APPEND, MPI_INFO_NULL,
                        &fh);
    CHECK(err == MPI_SUCCESS, "open append: %d", err);
    MPI_File_get_position(fh, &pos);
    MPI_File_get_size(fh, &sz);
    CHECK(pos == sz && sz > 0, "append position %lld size %lld",
          (long long)pos, (long long)sz);
    err = MPI_File_read(fh, got, 1, MPI_INT, &st);
    expect_err(err, MPI_ERR_ACCESS, "read on a write-only file");
    MPI_File_close(&fh);
    err = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL,
                        &fh);
    CHECK(err == MPI_SUCCESS, "open read-only: %d", err);
    err = MPI_File_write_at(fh, 0, buf, 1, MPI_INT, &st);
    expect_err(err, MPI_ERR_READ_ONLY, "write on a read-only file");
    err = MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "external32",
                            MPI_INFO_NULL);
    expect_err(err, MPI_ERR_UNSUPPORTED_DATAREP, "datarep external32");
    err = MPI_File_set_view(fh, 0, MPI_DOUBLE, MPI_INT, "native",
                            MPI_INFO_NULL);
    expect_err(err, MPI_ERR_TYPE, "filetype of int, etype double");
    err = MPI_File_seek(fh, -1, MPI_SEEK_SET);
    expect_err(err, MPI_ERR_ARG, "seek before the start");
    MPI_File_close(&fh);

    /* ---- open errors (MPI_FILE_NULL's handler: errors return) ---- */
    err = MPI_File_open(MPI_COMM_WORLD, path,
                        MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_WRONLY,
                        MPI_INFO_NULL, &fh);
    expect_err(err, MPI_ERR_FILE_EXISTS, "EXCL on an existing file");
    CHECK(fh == MPI_FILE_NULL, "failed open gives MPI_FILE_NULL");
    err = MPI_File_open(MPI_COMM_WORLD, path2, MPI_MODE_RDONLY,
                        MPI_INFO_NULL, &fh);
    expect_err(err, MPI_ERR_NO_SUCH_FILE, "open a missing file");
    err = MPI_File_open(MPI_COMM_WORLD, path,
                        MPI_MODE_RDONLY | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    expect_err(err, MPI_ERR_AMODE, "RDONLY|RDWR");
    err = MPI_File_open(MPI_COMM_WORLD, path,
                        MPI_MODE_RDONLY | MPI_MODE_CREATE, MPI_INFO_NULL,
                        &fh);
    expect_err(err, MPI_ERR_AMODE, "RDONLY|CREATE");
    err = MPI_File_open(MPI_COMM_WORLD, argc > 1 ? argv[1] : "/tmp",
                        MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    expect_err(err, MPI_ERR_BAD_FILE, "open a directory read-write");
    err = MPI_File_get_size(MPI_FILE_NULL, &sz);
    expect_err(err, MPI_ERR_FILE, "MPI_FILE_NULL");

    /* ---- delete on close, delete ---- */
    MPI_Barrier(MPI_COMM_WORLD);
    err = MPI_File_open(MPI_COMM_WORLD, path2,
                        MPI_MODE_CREATE | MPI_MODE_RDWR |
                            MPI_MODE_DELETE_ON_CLOSE,
                        MPI_INFO_NULL, &fh);
    CHECK(err == MPI_SUCCESS, "open delete-on-close: %d", err);
    MPI_File_close(&fh);
    CHECK(access(path2, F_OK) != 0, "deleted on close");
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        err = MPI_File_delete(path, MPI_INFO_NULL);
        CHECK(err == MPI_SUCCESS, "delete: %d", err);
        err = MPI_File_delete(path, MPI_INFO_NULL);
        expect_err(err, MPI_ERR_NO_SUCH_FILE, "delete twice");
    }
    return mpitest_end("t_io");
}

/* The texts of the error classes of one-sided communication, MPI-IO and
 * ports (rckmpi_win_io.h: 50 and up), for MPI_Error_string. */
#include "rckmpi.h"

static const char *const text[] = {
    [MPI_ERR_WIN - RCKMPI_ERR_WINIO_FIRST] = "invalid window",
    [MPI_ERR_BASE - RCKMPI_ERR_WINIO_FIRST] = "invalid base address",
    [MPI_ERR_SIZE - RCKMPI_ERR_WINIO_FIRST] = "invalid size",
    [MPI_ERR_DISP - RCKMPI_ERR_WINIO_FIRST] = "invalid displacement",
    [MPI_ERR_LOCKTYPE - RCKMPI_ERR_WINIO_FIRST] = "invalid lock type",
    [MPI_ERR_ASSERT - RCKMPI_ERR_WINIO_FIRST] = "invalid assertion",
    [MPI_ERR_RMA_CONFLICT - RCKMPI_ERR_WINIO_FIRST] =
        "conflicting accesses to a window",
    [MPI_ERR_RMA_SYNC - RCKMPI_ERR_WINIO_FIRST] =
        "wrong synchronization of one-sided calls",
    [MPI_ERR_RMA_RANGE - RCKMPI_ERR_WINIO_FIRST] =
        "target memory outside the window",
    [MPI_ERR_RMA_ATTACH - RCKMPI_ERR_WINIO_FIRST] =
        "memory cannot be attached",
    [MPI_ERR_RMA_FLAVOR - RCKMPI_ERR_WINIO_FIRST] =
        "wrong flavor of window",
    [MPI_ERR_FILE - RCKMPI_ERR_WINIO_FIRST] = "invalid file handle",
    [MPI_ERR_NOT_SAME - RCKMPI_ERR_WINIO_FIRST] =
        "collective argument not the same on every process",
    [MPI_ERR_AMODE - RCKMPI_ERR_WINIO_FIRST] = "invalid access mode",
    [MPI_ERR_UNSUPPORTED_DATAREP - RCKMPI_ERR_WINIO_FIRST] =
        "unsupported data representation",
    [MPI_ERR_NO_SUCH_FILE - RCKMPI_ERR_WINIO_FIRST] = "no such file",
    [MPI_ERR_FILE_EXISTS - RCKMPI_ERR_WINIO_FIRST] = "file exists",
    [MPI_ERR_BAD_FILE - RCKMPI_ERR_WINIO_FIRST] = "invalid file name",
    [MPI_ERR_ACCESS - RCKMPI_ERR_WINIO_FIRST] = "permission denied",
    [MPI_ERR_NO_SPACE - RCKMPI_ERR_WINIO_FIRST] = "no space left",
    [MPI_ERR_QUOTA - RCKMPI_ERR_WINIO_FIRST] = "quota exceeded",
    [MPI_ERR_READ_ONLY - RCKMPI_ERR_WINIO_FIRST] = "read-only file or "
                                                   "file system",
    [MPI_ERR_FILE_IN_USE - RCKMPI_ERR_WINIO_FIRST] = "file in use",
    [MPI_ERR_DUP_DATAREP - RCKMPI_ERR_WINIO_FIRST] =
        "data representation already defined",
    [MPI_ERR_CONVERSION - RCKMPI_ERR_WINIO_FIRST] =
        "data conversion failed",
    [MPI_ERR_IO - RCKMPI_ERR_WINIO_FIRST] = "I/O error",
    [MPI_ERR_PORT - RCKMPI_ERR_WINIO_FIRST] = "invalid port name",
    [MPI_ERR_SERVICE - RCKMPI_ERR_WINIO_FIRST] = "invalid service name",
    [MPI_ERR_NAME - RCKMPI_ERR_WINIO_FIRST] = "service name not published",
    [MPI_ERR_RMA_SHARED - RCKMPI_ERR_WINIO_FIRST] =
        "memory cannot be shared",
};

const char *rk_winio_err_string(int err)
{
    if (err < RCKMPI_ERR_WINIO_FIRST || err > RCKMPI_ERR_WINIO_LAST ||
        text[err - RCKMPI_ERR_WINIO_FIRST] == NULL)
        return "invalid error code";
    return text[err - RCKMPI_ERR_WINIO_FIRST];
}

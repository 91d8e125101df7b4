/*
 * The mpi suite's ping-pong, Sendrecv, Allreduce and Bcast in C, for Open MPI beside Troupe in the same run:
 *   mpi_bench pingpong|sendrecv|allreduce|bcast quick(0|1)
 * Rank 0 prints one line per size: bytes median_us p99_us (the same sizes, samples and warm-up as MpiRank.java).
 * MpiSuite compiles it with mpicc when Open MPI is installed (apt-get install openmpi-bin libopenmpi-dev).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp(const void *a, const void *b) {
    double x = *(const double *) a, y = *(const double *) b;
    return x < y ? -1 : x > y;
}

static int samples(long bytes, int quick) {
    int n = bytes >= (1 << 20) ? 400 : bytes >= (1 << 16) ? 4000 : 40000;
    return quick ? n / 2 : n;
}

static void line(long bytes, double *t, int n, int divisor) {
    qsort(t, n, sizeof(double), cmp);
    int p99 = (int) ((n * 99 + 99) / 100) - 1;
    printf("%ld %.4f %.4f\n", bytes, t[n / 2] * 1e6 / divisor, t[p99] * 1e6 / divisor);
    fflush(stdout);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const char *c = argc > 1 ? argv[1] : "pingpong";
    int quick = argc > 2 ? atoi(argv[2]) : 1;
    if (strcmp(c, "pingpong") == 0) {
        long sizes[] = {1, 16, 256, 4096, 65536, 1 << 20, 4 << 20};
        for (int s = 0; s < 7; s++) {
            long bytes = sizes[s];
            char *buf = calloc(bytes, 1);
            int n = samples(bytes, quick);
            double *t = malloc(sizeof(double) * n);
            for (int i = -3 * n; i < n; i++) {
                double t0 = MPI_Wtime();
                if (rank == 0) {
                    MPI_Send(buf, bytes, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
                    MPI_Recv(buf, bytes, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                } else if (rank == 1) {
                    MPI_Recv(buf, bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    MPI_Send(buf, bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
                }
                if (i >= 0) t[i] = MPI_Wtime() - t0;
            }
            if (rank == 0) line(bytes, t, n, 2);
            free(buf);
            free(t);
        }
    } else if (strcmp(c, "sendrecv") == 0) {
        /* One exchange both ways at once, both ranks in MPI_Sendrecv: rank 0's time of each. */
        long sizes[] = {1024, 32 * 1024, 1 << 20};
        for (int s = 0; s < 3; s++) {
            long bytes = sizes[s];
            char *out = calloc(bytes, 1), *in = calloc(bytes, 1);
            int n = samples(bytes, quick), peer = 1 - rank;
            double *t = malloc(sizeof(double) * n);
            for (int i = -3 * n; i < n; i++) {
                double t0 = MPI_Wtime();
                if (rank <= 1)
                    MPI_Sendrecv(out, bytes, MPI_BYTE, peer, 2, in, bytes, MPI_BYTE, peer, 2, MPI_COMM_WORLD,
                                 MPI_STATUS_IGNORE);
                if (i >= 0) t[i] = MPI_Wtime() - t0;
            }
            if (rank == 0) line(bytes, t, n, 1);
            free(out);
            free(in);
            free(t);
        }
    } else {
        long counts[] = {1, 1024, 131072};
        int allreduce = strcmp(c, "allreduce") == 0;
        for (int s = 0; s < 3; s++) {
            long k = counts[s];
            double *in = malloc(sizeof(double) * k), *out = malloc(sizeof(double) * k);
            for (long j = 0; j < k; j++) in[j] = rank;
            int n = samples(8 * k, quick);
            double *t = malloc(sizeof(double) * n);
            for (int i = -3 * n; i < n; i++) {
                MPI_Barrier(MPI_COMM_WORLD);
                double t0 = MPI_Wtime();
                if (allreduce) MPI_Allreduce(in, out, k, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
                else MPI_Bcast(in, k, MPI_DOUBLE, 0, MPI_COMM_WORLD);
                if (i >= 0) t[i] = MPI_Wtime() - t0;
            }
            if (rank == 0) line(8 * k, t, n, 1);
            free(in);
            free(out);
            free(t);
        }
    }
    MPI_Finalize();
    return 0;
}

import java.io.Serializable;
import java.util.Vector;
import mpi.MPI;

/**
 * Each rank makes a Vector of particle records in its own region of space and sends it to rank 0 as one MPI.OBJECT,
 * as MPJ Express programs send their collections; rank 0 gathers them all and prints the count and the centre of
 * mass, which do not depend on the number of ranks. Run: bin/mpjrun -np 4 -cp DIR ParticleVector
 */
public class ParticleVector {
    static final int PARTICLES = 1200;

    record Particle(int id, double x, double y, double mass) implements Serializable {}

    public static void main(String[] args) throws Exception {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.Rank();
        int size = MPI.COMM_WORLD.Size();
        Vector<Particle> mine = new Vector<>();
        for (int id = rank; id < PARTICLES; id += size) {
            mine.add(new Particle(id, id % 40, id / 40, 1 + id % 3));
        }
        if (rank == 0) {
            Vector<Particle> all = new Vector<>(mine);
            Object[] box = new Object[1];
            for (int from = 1; from < size; from++) {
                MPI.COMM_WORLD.Recv(box, 0, 1, MPI.OBJECT, from, 0);
                @SuppressWarnings("unchecked")
                Vector<Particle> theirs = (Vector<Particle>) box[0];
                all.addAll(theirs);
            }
            double mass = 0, x = 0, y = 0;
            for (Particle p : all) {
                mass += p.mass();
                x += p.x() * p.mass();
                y += p.y() * p.mass();
            }
            System.out.printf("%d particles from %d ranks; centre of mass (%.4f, %.4f)%n", all.size(), size, x / mass, y / mass);
        } else {
            MPI.COMM_WORLD.Send(new Object[] {mine}, 0, 1, MPI.OBJECT, 0, 0);
        }
        MPI.Finalize();
    }
}

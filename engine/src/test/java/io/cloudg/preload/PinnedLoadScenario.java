package io.cloudg.preload;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.function.BooleanSupplier;

/**
 * Issue 37's deadlock, step by step, in a JVM of its own whose virtual-thread scheduler has
 * {@code -Djdk.virtualThreadScheduler.parallelism} carriers. Run by {@link PinnedClassLoadDeadlockTest}.
 * <ol>
 *   <li>(with {@code preload}) {@link ClassPreload#load} loads the jobs' class, {@link Victim}, on a platform
 *   thread, as the map does before its first job;</li>
 *   <li>a virtual thread takes a monitor and parks holding it: it unmounts (JEP 491) and frees its carrier;</li>
 *   <li>a platform thread loads {@link SimClass}: it holds the loader's shared lock and blocks on the monitor;</li>
 *   <li>as many virtual-thread jobs as carriers run {@link Caller}, whose first line makes the JVM load
 *   {@link Victim}: a VM-initiated load, a native frame on the stack, so a job blocked on the shared lock keeps
 *   its carrier. The scenario waits until each job is blocked (or, preloaded, ended);</li>
 *   <li>the monitor's holder is unparked: it needs a carrier to finish on and release the monitor.</li>
 * </ol>
 * Every carrier held: the holder never runs, the platform thread never gets the monitor, the jobs never get the
 * lock. Exit 0 when every thread ended, 3 when they are still stuck {@value #DEADLINE_SECONDS} s after the
 * release (the hang, detected by a deadline), with each thread's state on stdout.
 */
public final class PinnedLoadScenario {
    static final int HANG = 3;
    static final int DEADLINE_SECONDS = 15;

    /** The class the jobs load. */
    public static final class Victim {
        static int touched;

        static void touch() {
            touched++;
        }
    }

    /** The class the platform thread loads while the monitor is held. */
    public static final class SimClass {
    }

    /** A job: its first line names {@link Victim}, so the JVM loads it through the job's class loader. */
    public static final class Caller implements Runnable {
        @Override
        public void run() {
            Victim.touch();
        }
    }

    private PinnedLoadScenario() {
    }

    public static void main(String[] args) throws Exception {
        boolean preload = args.length > 0 && args[0].equals("preload");
        int carriers = Integer.getInteger("jdk.virtualThreadScheduler.parallelism");
        Object monitor = new Object();
        GatedLoader loader = new GatedLoader(PinnedLoadScenario.class.getClassLoader(),
                Set.of(Victim.class.getName(), SimClass.class.getName(), Caller.class.getName()),
                SimClass.class.getName(), monitor);
        Class<?> caller = Class.forName(Caller.class.getName(), true, loader);
        if (preload) {
            PreloadReport r = ClassPreload.load(new ClassList(List.of(Victim.class.getName())), loader,
                    new PreloadConfig(true, java.util.Optional.empty(), 1, PreloadConfig.NONE), "scenario");
            System.out.println("preloaded " + r);
        }

        CountDownLatch holds = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread holder = Thread.ofVirtual().name("monitor-holder").start(() -> {
            synchronized (monitor) {
                holds.countDown();
                awaitUninterruptibly(release);
            }
        });
        holds.await();

        loader.arm();
        Thread platform = Thread.ofPlatform().name("platform-loader").start(() -> {
            try {
                Class.forName(SimClass.class.getName(), false, loader);
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException(e);
            }
        });
        waitUntil(() -> platform.getState() == Thread.State.BLOCKED);

        List<Thread> jobs = new ArrayList<>();
        for (int i = 0; i < carriers; i++) {
            jobs.add(Thread.ofVirtual().name("job-" + i).start((Runnable) caller.getDeclaredConstructor().newInstance()));
        }
        waitUntil(() -> jobs.stream().allMatch(t -> t.getState() == Thread.State.BLOCKED
                || t.getState() == Thread.State.TERMINATED));
        release.countDown();

        // the holder is the one that needs a carrier: if it cannot end, nothing can
        boolean ended = holder.join(java.time.Duration.ofSeconds(DEADLINE_SECONDS));
        List<Thread> all = new ArrayList<>(jobs);
        all.add(holder);
        all.add(platform);
        for (Thread t : all) {
            ended = ended && t.join(java.time.Duration.ofSeconds(DEADLINE_SECONDS));
        }
        for (Thread t : all) {
            System.out.println(t.getName() + " " + t.getState());
        }
        System.out.println(ended ? "ENDED" : "HANG");
        System.out.flush();
        Runtime.getRuntime().halt(ended ? 0 : HANG);
    }

    /** Polls a state another thread reaches by itself (nothing to be signalled by): yields, never sleeps. */
    private static void waitUntil(BooleanSupplier condition) {
        while (!condition.getAsBoolean()) {
            Thread.yield();
        }
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        while (true) {
            try {
                latch.await();
                return;
            } catch (InterruptedException e) {
                // the scenario never interrupts
            }
        }
    }
}

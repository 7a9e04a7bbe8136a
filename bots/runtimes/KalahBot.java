// A correct Kalah bot in Java (a sample bot of bots/runtimes/), compiled by
// tests/sandbox_runtimes.rs into a temporary folder and run on a JVM.
//
// It plays the Manchester protocol: the first non-empty hole of its own row,
// read from every CHANGE state string (North holes, North store, South holes,
// South store); hole 1 as South's opening. It never swaps; after the
// opponent's SWAP it plays the other row. It flushes after every message and
// exits at END or at the end of its input.
//
// protocheck must report: nothing (pass), sandboxed or not.

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

public class KalahBot {
    public static void main(String[] args) throws Exception {
        BufferedReader in =
                new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        boolean north = false;
        String line;
        while ((line = in.readLine()) != null) {
            String[] fields = line.split(";", -1);
            if (fields[0].equals("START")) {
                north = fields[1].equals("North");
                if (!north) {
                    say("MOVE;1");
                }
            } else if (fields[0].equals("CHANGE") && fields.length == 4) {
                if (fields[1].equals("SWAP")) {
                    north = !north;
                }
                if (fields[3].equals("YOU")) {
                    say("MOVE;" + firstHole(fields[2], north));
                }
            } else if (fields[0].equals("END")) {
                return;
            }
        }
    }

    static int firstHole(String state, boolean north) {
        String[] values = state.split(",");
        int n = (values.length - 2) / 2;
        int start = north ? 0 : n + 1;
        for (int i = 0; i < n; i++) {
            if (Integer.parseInt(values[start + i]) > 0) {
                return i + 1;
            }
        }
        return 1;
    }

    static void say(String message) {
        System.out.print(message + "\n");
        System.out.flush();
    }
}

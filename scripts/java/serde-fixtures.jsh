// Regenerates test/fixtures/kafka-serdes.json with Kafka's own serializers:
//   jshell --class-path .kafka/4.4.0/libs/kafka-clients-4.4.0.jar scripts/java/serde-fixtures.jsh > test/fixtures/kafka-serdes.json
import org.apache.kafka.common.serialization.*;
String hex(byte[] b) { if (b == null) return "null"; StringBuilder s = new StringBuilder("\""); for (byte x : b) s.append(String.format("%02x", x)); return s.append("\"").toString(); }
String row(String serde, String value, byte[] bytes) { return "    { \"serde\": \"" + serde + "\", \"value\": " + value + ", \"hex\": " + hex(bytes) + " }"; }
var rows = new java.util.ArrayList<String>();
for (long v : new long[] { 0L, 1L, -1L, 42L, 9007199254740991L, -9007199254740991L, 1700000000000L }) rows.add(row("Long", String.valueOf(v), Serdes.Long().serializer().serialize("t", v)));
for (int v : new int[] { 0, 1, -1, 2147483647, -2147483648, 123456 }) rows.add(row("Integer", String.valueOf(v), Serdes.Integer().serializer().serialize("t", v)));
for (short v : new short[] { 0, 1, -1, 32767, -32768 }) rows.add(row("Short", String.valueOf(v), Serdes.Short().serializer().serialize("t", v)));
for (double v : new double[] { 0.0, 1.5, -2.25, 3.141592653589793, 1e300 }) rows.add(row("Double", String.valueOf(v), Serdes.Double().serializer().serialize("t", v)));
for (float v : new float[] { 0.0f, 1.5f, -2.25f, 0.1f }) rows.add(row("Float", "\"" + Float.toString(v) + "\"", Serdes.Float().serializer().serialize("t", v)));
for (boolean v : new boolean[] { true, false }) rows.add(row("Boolean", String.valueOf(v), Serdes.Boolean().serializer().serialize("t", v)));
for (String v : new String[] { "00000000-0000-0000-0000-000000000000", "123e4567-e89b-12d3-a456-426614174000" }) rows.add(row("UUID", "\"" + v + "\"", Serdes.UUID().serializer().serialize("t", java.util.UUID.fromString(v))));
for (String v : new String[] { "", "green", "grün ✓" }) rows.add(row("String", "\"" + v + "\"", Serdes.String().serializer().serialize("t", v)));
rows.add(row("Void", "null", Serdes.Void().serializer().serialize("t", null)));
System.out.println("{\n  \"generatedBy\": \"scripts/java/serde-fixtures.jsh with kafka-clients " + "4.4.0" + "\",\n  \"cases\": [\n" + String.join(",\n", rows) + "\n  ]\n}");
/exit

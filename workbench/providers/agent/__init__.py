"""Agent readers (`agent:PROVIDER:MODEL`): a tool loop with four restricted, read-only tools on one
case's PDF (`tools`), spoken in each provider's native tool-calling format (`wire`), run by one
controller under a turn limit and a wall-clock deadline (`loop`). Every record carries the tool
trace and a contract, reader and controller hash."""

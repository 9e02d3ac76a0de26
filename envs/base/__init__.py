"""What every world shares: the perception log (global trace in, per-agent perceptions out), the text
observation/action spaces, and labelled ToM questions answered from one checker run."""
